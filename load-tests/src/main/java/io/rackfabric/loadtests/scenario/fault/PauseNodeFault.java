package io.rackfabric.loadtests.scenario.fault;

import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import io.rackfabric.loadtests.scenario.language.At;
import io.rackfabric.loadtests.scenario.language.Durations;
import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.Mode;
import io.rackfabric.loadtests.scenario.language.Param;
import io.rackfabric.loadtests.scenario.language.ParamType;
import io.rackfabric.loadtests.scenario.language.Params;
import io.rackfabric.loadtests.scenario.language.ScenarioContext;
import io.rackfabric.loadtests.scenario.language.Target;
import java.util.List;

/**
 * {@code pause-node}: a node stops for {@code for}, then runs on, as after a long garbage
 * collection or a hung host. {@code for} is on {@code at}'s clock.
 *
 * <p>At a model time it is the model's pause, in one JVM or several (under the model-time kernel):
 * the rack is held before {@code at}, and every component of the node handles nothing over
 * [{@code at}, {@code at + for}): what falls due meanwhile, its own timers and what its partners
 * send it, is handled when the pause ends, in its order. Its partners see it silent for that long
 * (no credit, no Ack, no heartbeat), and react in model time: a master paused past the heartbeat
 * deadline is suspected and fenced. At a wall time the node's JVM is frozen (SIGSTOP) and let go
 * (SIGCONT): multi-JVM runs only, and where that falls in model time depends on the machine.
 */
public final class PauseNodeFault implements FaultType {

  @Override
  public String name() {
    return "pause-node";
  }

  @Override
  public String summary() {
    return "pause node TARGET for FOR (on at's clock): at a model time its components handle nothing meanwhile"
        + " (any mode); at a wall time its JVM is frozen (SIGSTOP), multi-jvm runs only";
  }

  @Override
  public Target target() {
    return Target.NODE;
  }

  @Override
  public List<Param> params() {
    return List.of(Param.required("for", ParamType.DURATION,
        "how long the node stays paused, on at's clock (model time for a model-time at, wall time for a wall one)"));
  }

  @Override
  public List<Long> steps(long at, Params params) {
    return WallWindow.steps(at, params);
  }

  /** In the model the whole pause is set at its start: one step. A JVM is frozen, then let go. */
  @Override
  public List<Long> steps(At at, Params params) {
    return at.isModel() ? List.of(at.nanos()) : steps(at.nanos(), params);
  }

  @Override
  public void check(FaultSpec fault, ScenarioContext context, Reporter report) {
    WallWindow.checkLength(fault, report);
    if (!fault.at().isModel() && context.mode() == Mode.SINGLE_JVM) {
      report.problem("at", "a pause at a wall time freezes a node's JVM, and this run is single-jvm: give it a model"
          + " time (at = \"" + Durations.text(fault.at().nanos())
          + "\") to pause the node in the model, or run multi-jvm");
    }
  }

  @Override
  public String apply(FaultSpec fault, int step, long modelAt, RunningRack rack) throws Exception {
    String length = WallWindow.length(fault);
    if (modelAt >= 0) {
      long until = modelAt + fault.params().number("for", 0);
      rack.pauseNodeAt(fault.target(), modelAt, until);
      return fault.target() + " paused in the model for " + length + ", until " + Durations.text(until);
    }
    if (step == 0) {
      rack.pauseNode(fault.target());
      return "JVM of " + fault.target() + " frozen (SIGSTOP) for " + length;
    }
    rack.resumeNode(fault.target());
    return "JVM of " + fault.target() + " runs on (SIGCONT)";
  }

  @Override
  public boolean takesLinkDown(FaultSpec fault, int step) {
    return false;
  }
}
