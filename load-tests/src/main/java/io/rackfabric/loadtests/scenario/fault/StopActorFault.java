package io.rackfabric.loadtests.scenario.fault;

import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.Target;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.RunningRack;

/**
 * {@code stop-actor}: a component's actor stops, as when the software or device behind it
 * crashes. At a model time its links go down stamped with that time first; its partners see the
 * surprise down and report it as for a pulled cable.
 */
public final class StopActorFault implements FaultType {

  @Override
  public String name() {
    return "stop-actor";
  }

  @Override
  public String summary() {
    return "stop the actor of component TARGET (an endpoint, or a switch chip with its ports)";
  }

  @Override
  public Target target() {
    return Target.COMPONENT;
  }

  @Override
  public String apply(FaultSpec fault, int step, long modelAt, RunningRack rack) throws Exception {
    rack.stop(fault.target(), modelAt);
    return fault.target() + " stopped" + (modelAt >= 0 ? ", its links down first" : "");
  }
}
