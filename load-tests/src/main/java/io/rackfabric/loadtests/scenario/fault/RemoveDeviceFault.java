package io.rackfabric.loadtests.scenario.fault;

import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.Target;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code remove-device}: a device is detached from the fabric (unplugged, powered off): every link
 * of the component goes down at its end at the fault's model time, as a {@code link-down} at each.
 * Its partners see the surprise down; under fabric management their device managers report it with
 * PI-5 events (AS-FM section 4). Unlike {@code stop-actor} its actor keeps running, so an
 * {@code add-device} can plug it back in; the device keeps its state meanwhile (not modelled as a
 * power cycle: its configuration space, event route included, is as it was).
 */
public final class RemoveDeviceFault implements FaultType {

  @Override
  public String name() {
    return "remove-device";
  }

  @Override
  public String summary() {
    return "detach component TARGET (an endpoint, or a switch chip): every link of it goes down at its end";
  }

  @Override
  public Target target() {
    return Target.COMPONENT;
  }

  @Override
  public String apply(FaultSpec fault, int step, long modelAt, RunningRack rack) throws Exception {
    List<String> down = new ArrayList<>();
    for (String end : rack.topology().endsOf(fault.target())) {
      if (rack.topology().linkAt(end).isPresent()) {
        rack.setLink(end, false, modelAt);
        down.add(end);
      }
    }
    return fault.target() + " removed: links down at " + String.join(", ", down);
  }
}
