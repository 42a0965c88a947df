package io.rackfabric.loadtests.scenario.fault;

import io.rackfabric.loadtests.scenario.language.Durations;
import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.Param;
import io.rackfabric.loadtests.scenario.language.ParamType;
import io.rackfabric.loadtests.scenario.language.Params;
import io.rackfabric.loadtests.scenario.language.ScenarioContext;
import io.rackfabric.loadtests.harness.NetnsPlan;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import io.rackfabric.loadtests.scenario.language.Target;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code degrade}: every frame node TARGET sends (to each other node and to the driver) is delayed
 * by {@code delay}, dropped with probability {@code loss} and/or paced at {@code rate}, for {@code
 * for} of wall time; then its links are restored. Delay and loss are netem's, so the run refuses
 * on a kernel without netem; a rate alone is a token bucket. Needs node JVMs in network namespaces.
 * The delay is real network time: it shows in wall time (and in Akka's and the heartbeats'
 * timers), not in the model clocks, which only the emulated links advance.
 */
public final class DegradeFault implements FaultType {

  // A fault on the network between node JVMs that lasts a wall-time window: it needs node JVMs,
  // stamps no model time, and has two steps, the start and the end.

  @Override
  public Target target() {
    return Target.NODE;
  }

  @Override
  public boolean needsMultiJvm() {
    return true;
  }

  @Override
  public boolean stampsModelTime() {
    return false;
  }

  @Override
  public List<Long> steps(long at, Params params) {
    return WallWindow.steps(at, params);
  }

  @Override
  public String name() {
    return "degrade";
  }

  @Override
  public String summary() {
    return "delay, drop (loss) or pace (rate) what node TARGET sends, for FOR of wall time (multi-jvm with network ="
        + " namespaces only; delay and loss need netem)";
  }

  @Override
  public List<Param> params() {
    List<Param> p = new ArrayList<>(WallWindow.params("how long the node's links stay degraded (wall time)"));
    p.add(Param.optional("delay", ParamType.DURATION, 0L, "added to every frame the node sends (network time)"));
    p.add(Param.optional("loss", ParamType.TEXT, "0", "fraction of frames dropped, 0.01 or \"1%\", in [0, 1]"));
    p.add(Param.optional("rate", ParamType.TEXT, "", "the node's send rate, e.g. \"10mbit\""));
    return p;
  }

  @Override
  public void check(FaultSpec fault, ScenarioContext context, Reporter report) {
    WallWindow.check(fault, report, "a network degradation happens in wall time");
    NetworkFaults.checkNamespaces(name(), context, report);
    Params p = fault.params();
    double loss = 0;
    long rate = 0;
    boolean ok = true;
    try {
      loss = NetworkFaults.fraction("loss", p.text("loss"));
    } catch (IllegalArgumentException e) {
      report.problem("loss", e.getMessage());
      ok = false;
    }
    String rateText = p.text("rate");
    if (rateText != null && !rateText.isEmpty()) {
      try {
        rate = NetworkFaults.bitsPerSecond("rate", rateText);
      } catch (IllegalArgumentException e) {
        report.problem("rate", e.getMessage());
        ok = false;
      }
    }
    if (ok && p.number("delay", 0) == 0 && loss == 0 && rate == 0) {
      report.problem("kind", "degrade needs delay, loss or rate: with none of them nothing changes");
    }
  }

  /** The degradation {@code fault} asks for (checked by {@link #check}). */
  public static NetnsPlan.Degradation degradation(FaultSpec fault) {
    Params p = fault.params();
    String rate = p.text("rate");
    return new NetnsPlan.Degradation(p.number("delay", 0), NetworkFaults.fraction("loss", p.text("loss")),
        rate == null || rate.isEmpty() ? 0 : NetworkFaults.bitsPerSecond("rate", rate));
  }

  @Override
  public boolean needsNetem(FaultSpec fault) {
    return degradation(fault).needsNetem();
  }

  @Override
  public String apply(FaultSpec fault, int step, long modelAt, RunningRack rack) throws Exception {
    if (step == 0) {
      NetnsPlan.Degradation d = degradation(fault);
      rack.degrade(fault.target(), d);
      return "links out of " + fault.target() + " degraded (delay " + Durations.text(d.delayNs()) + ", loss " + d.loss()
          + (d.rateBitsPerS() > 0 ? ", rate " + d.rateBitsPerS() + " bit/s" : "") + ") for " + WallWindow.length(fault);
    }
    rack.degrade(fault.target(), null);
    return "links out of " + fault.target() + " restored";
  }

  @Override
  public boolean takesLinkDown(FaultSpec fault, int step) {
    return false;
  }
}
