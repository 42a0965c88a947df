package io.rackfabric.loadtests.scenario.fault;

import io.rackfabric.loadtests.scenario.language.Durations;
import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.Param;
import io.rackfabric.loadtests.scenario.language.ParamType;
import io.rackfabric.loadtests.scenario.language.Params;
import io.rackfabric.loadtests.scenario.language.ScenarioContext;
import io.rackfabric.loadtests.scenario.language.Target;
import io.rackfabric.fabric.link.LinkErrors;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import java.util.List;

/**
 * {@code tlp-errors}: the link end at TARGET drops, corrupts or delays the TLPs it transmits
 * during a model-time window, with the given probabilities, drawn from the scenario's seed. The
 * data link layer's retry recovers corrupted and dropped TLPs by replay; a TLP whose replays all
 * fail takes the link down past the replay limit (AER REPLAY_ROLLOVER), after which it retrains.
 */
public final class TlpErrorsFault implements FaultType {

  @Override
  public String name() {
    return "tlp-errors";
  }

  @Override
  public String summary() {
    return "TARGET's transmitter drops, corrupts (bad LCRC, replayed) or delays TLPs with the given"
        + " probabilities, for FOR of model time";
  }

  @Override
  public List<Param> params() {
    return List.of(
        Param.optional("drop", ParamType.PROBABILITY, 0.0, "probability a TLP never reaches the partner"),
        Param.optional("corrupt", ParamType.PROBABILITY, 0.0, "probability a TLP arrives with a bad LCRC"),
        Param.optional("delay", ParamType.DURATION, 0L, "model time added to a delayed TLP's arrival"),
        Param.optional("delay-rate", ParamType.PROBABILITY, null,
            "probability a TLP is delayed (default: every TLP neither dropped nor corrupted)"),
        Param.optional("for", ParamType.DURATION, null, "length of the window (default: to the end of the run)"));
  }

  @Override
  public Target target() {
    return Target.LINK_END;
  }

  @Override
  public void check(FaultSpec fault, ScenarioContext context, Reporter report) {
    Params p = fault.params();
    if (!fault.at().isModel()) {
      report.problem("at", "at=" + fault.at() + " must be model time: the window is in model time");
    }
    double drop = p.probability("drop", 0);
    double corrupt = p.probability("corrupt", 0);
    double delayRate = delayRate(p);
    double sum = drop + corrupt + delayRate;
    if (sum > 1 + 1e-9) {
      report.problem("drop", "drop + corrupt + delay-rate=" + sum + " exceeds 1 (one draw per TLP picks at most one)");
    }
    if (p.has("delay-rate") && p.number("delay", 0) == 0 && delayRate > 0) {
      report.problem("delay-rate", "delay-rate=" + delayRate + " without a delay");
    }
    if (drop == 0 && corrupt == 0 && (p.number("delay", 0) == 0 || delayRate == 0)) {
      report.problem("drop", "nothing to inject: drop, corrupt and delay are all 0");
    }
    if (p.has("for") && p.number("for", 0) < 1) {
      report.problem("for", "for=" + Durations.text(p.number("for", 0)) + " must be positive");
    }
  }

  @Override
  public String apply(FaultSpec fault, int step, long modelAt, RunningRack rack) throws Exception {
    Params p = fault.params();
    long from = Math.max(0, modelAt);
    long until = p.has("for") ? from + p.number("for", 0) : Long.MAX_VALUE;
    // The scenario's seed, spread over link ends so two faults of a run draw different sequences.
    long seed = rack.seed() * 31 + fault.target().hashCode();
    LinkErrors errors = new LinkErrors(p.probability("drop", 0), p.probability("corrupt", 0),
        delayRate(p), p.number("delay", 0), from, until, seed);
    rack.injectLinkErrors(fault.target(), errors);
    return "TLPs sent by " + fault.target() + ": drop " + errors.dropRate() + ", corrupt " + errors.corruptRate()
        + ", delay " + Durations.text(errors.delayNs()) + " at " + errors.delayRate() + " until "
        + (until == Long.MAX_VALUE ? "the end" : Durations.text(until));
  }

  /**
   * Dropping every TLP lets no replay through: the link goes down past the replay limit, as long
   * as traffic crosses it in the window and the window covers the replays.
   */
  @Override
  public boolean takesLinkDown(FaultSpec fault, int step) {
    return fault.params().probability("drop", 0) >= 1;
  }

  private static double delayRate(Params p) {
    if (p.has("delay-rate")) {
      return p.probability("delay-rate", 0);
    }
    if (p.number("delay", 0) == 0) {
      return 0;
    }
    return Math.max(0, 1 - p.probability("drop", 0) - p.probability("corrupt", 0));
  }
}
