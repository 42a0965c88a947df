package io.rackfabric.loadtests.scenario.fault;

import io.rackfabric.loadtests.scenario.language.Params;
import io.rackfabric.loadtests.scenario.language.Target;
import io.rackfabric.loadtests.scenario.api.FaultType;
import java.util.List;

/**
 * A fault on a node's JVM or its network that lasts a {@link WallWindow}: it needs node JVMs,
 * stamps no model time, and has two steps, the start and the end. What pause-node and degrade
 * share (partition, which also takes a model time, has its own).
 */
abstract class NodeWindowFault implements FaultType {

  @Override
  public final Target target() {
    return Target.NODE;
  }

  @Override
  public final boolean needsMultiJvm() {
    return true;
  }

  @Override
  public final boolean stampsModelTime() {
    return false;
  }

  @Override
  public final List<Long> steps(long at, Params params) {
    return WallWindow.steps(at, params);
  }
}
