package io.rackfabric.loadtests.scenario.fault;

import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.Target;

/**
 * {@code restart-node}: a node whose JVM was killed (an earlier {@code kill-node}) is started again
 * with its old arguments and data folder, as an operator runs {@code rack node} again on a repaired
 * machine. A management host on it finds its own journal, starts FENCED on its last tenure (no boot
 * runs again, so it never pairs as a second master) and rejoins the master as its backup by the
 * verified state transfer, into its next tenure; the CHs' drivers learn its new address.
 *
 * <p>At a model time (multi-JVM runs under the kernel) the rack is held there; the keeper takes the
 * node's components back in under their names with fresh counts, their clocks starting then, and
 * holds the rack there until all have joined; their links train stamped at that time. The
 * scenario must kill the node at an earlier model time ({@code NodeRestarts}, at {@code --check}).
 * At a wall time it runs free of the kernel, as it comes.
 */
public final class RestartNodeFault implements FaultType {

  @Override
  public String name() {
    return "restart-node";
  }

  @Override
  public String summary() {
    return "start killed node TARGET's JVM again on its data folder (multi-jvm runs only)";
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
    return rack.restartNode(fault.target(), modelAt);
  }

  @Override
  public boolean takesLinkDown(FaultSpec fault, int step) {
    return false;
  }
}
