package io.rackfabric.loadtests.scenario.fault;

import io.rackfabric.loadtests.scenario.language.Durations;
import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.Param;
import io.rackfabric.loadtests.scenario.language.ParamType;
import io.rackfabric.loadtests.scenario.language.Params;
import io.rackfabric.loadtests.scenario.language.ScenarioContext;
import io.rackfabric.loadtests.scenario.language.Target;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code link-flap}: the link at TARGET goes down at {@code at}, up half a period later, and so
 * on for {@code count} periods; each up waits until the link trained again.
 */
public final class LinkFlapFault implements FaultType {

  @Override
  public String name() {
    return "link-flap";
  }

  @Override
  public String summary() {
    return "take the link at TARGET down and up again, COUNT times, one cycle per PERIOD (down for half of it)";
  }

  @Override
  public List<Param> params() {
    return List.of(
        Param.required("period", ParamType.DURATION, "one down-and-up cycle, on at's clock (down for the first half)"),
        Param.optional("count", ParamType.COUNT, 1L, "how many cycles"));
  }

  @Override
  public Target target() {
    return Target.LINK_END;
  }

  @Override
  public List<Long> steps(long at, Params params) {
    long half = params.number("period", 2) / 2;
    long count = params.number("count", 1);
    List<Long> steps = new ArrayList<>();
    for (long i = 0; i < 2 * count; i++) {
      steps.add(at + i * half);
    }
    return steps;
  }

  @Override
  public void check(FaultSpec fault, ScenarioContext context, Reporter report) {
    long period = fault.params().number("period", 0);
    if (period < 2) {
      report.problem("period", "period=" + Durations.text(period) + " is too short: the link is down for half of it");
    }
  }

  @Override
  public String apply(FaultSpec fault, int step, long modelAt, RunningRack rack) throws Exception {
    String cycle = "cycle " + (step / 2 + 1) + " of " + fault.params().number("count", 1) + ": ";
    if (step % 2 == 0) {
      rack.setLink(fault.target(), false, modelAt);
      return cycle + "link at " + fault.target() + " down";
    }
    return cycle + LinkUpFault.up(fault.target(), modelAt, rack);
  }

  @Override
  public boolean takesLinkDown(FaultSpec fault, int step) {
    return step % 2 == 0;
  }
}
