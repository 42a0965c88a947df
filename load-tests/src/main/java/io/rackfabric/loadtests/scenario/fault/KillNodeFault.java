package io.rackfabric.loadtests.scenario.fault;

import io.rackfabric.cluster.scenario.FaultSpec;
import io.rackfabric.cluster.scenario.Target;
import io.rackfabric.loadtests.scenario.FaultType;
import io.rackfabric.loadtests.scenario.RunningRack;

/**
 * {@code kill-node}: a node's JVM is killed (SIGKILL). Nothing it runs says goodbye: the partners
 * of its components notice the silence by DLLP timeout (wall time, rackfabric.fabric.link-timers),
 * so give run.settle more than that timeout.
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
  public boolean stampsModelTime() {
    return false;
  }

  @Override
  public String apply(FaultSpec fault, int step, long modelAt, RunningRack rack) {
    rack.killNode(fault.target());
    return "JVM of " + fault.target() + " killed; it ran " + rack.topology().placedOn(fault.target()).stream()
        .map(c -> c.id()).toList();
  }
}
