package io.rackfabric.loadtests.scenario.fault;

import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import io.rackfabric.loadtests.scenario.language.Durations;
import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.ScenarioContext;
import io.rackfabric.loadtests.scenario.language.Target;

/**
 * {@code restart-node}: a node whose JVM was killed (an earlier {@code kill-node}) is started again
 * with its old arguments and data folder, as an operator runs {@code rack node} again on a repaired
 * machine. A management host on it finds its own journal, starts FENCED on its last tenure (no boot
 * runs again, so it never pairs as a second master) and rejoins the master as its backup by the
 * verified state transfer, into its next tenure; the CHs' drivers learn its new address.
 *
 * <p>At a wall time only: the model-time kernel does not take a restarted node's components back
 * in (their counts, their clocks from the restart's model time, their links trained then), so a
 * model-time {@code at} is refused when the scenario is read.
 */
public final class RestartNodeFault implements FaultType {

  @Override
  public String name() {
    return "restart-node";
  }

  @Override
  public String summary() {
    return "start killed node TARGET's JVM again on its data folder, at a wall time (multi-jvm runs only)";
  }

  @Override
  public Target target() {
    return Target.NODE;
  }

  @Override
  public boolean needsMultiJvm() {
    return true;
  }

  @Override
  public void check(FaultSpec fault, ScenarioContext context, Reporter report) {
    if (fault.at().isModel()) {
      report.problem("at", "restart-node at a model time (" + fault.at() + ") needs the model-time kernel to take a"
          + " restarted node's components back in, which it does not yet: give a wall time (at = \"wall "
          + Durations.text(fault.at().nanos()) + "\") in a run free of the kernel");
    }
  }

  @Override
  public String apply(FaultSpec fault, int step, long modelAt, RunningRack rack) throws Exception {
    return rack.restartNode(fault.target());
  }

  @Override
  public boolean takesLinkDown(FaultSpec fault, int step) {
    return false;
  }
}
