package io.rackfabric.loadtests.scenario.fault;

import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.Target;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.RunningRack;

/**
 * {@code kill-node}: a node's JVM is killed (SIGKILL). At a model time the links of the node's
 * components go down at that time, as when a node loses power, and the model-time kernel goes on
 * without them: the run stays a function of its scenario. At a wall time nothing says goodbye:
 * the harness downs the node's cluster member at once, and each partner learns of the death
 * through the watch it keeps on its link's other end.
 */
public final class KillNodeFault implements FaultType {

  @Override
  public String name() {
    return "kill-node";
  }

  @Override
  public String summary() {
    return "kill node TARGET's JVM at once (multi-jvm runs only)";
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
  public String apply(FaultSpec fault, int step, long modelAt, RunningRack rack) throws Exception {
    rack.killNode(fault.target(), modelAt);
    return "JVM of " + fault.target() + " killed; it ran " + rack.topology().placedOn(fault.target()).stream()
        .map(c -> c.id()).toList();
  }
}
