package io.rackfabric.loadtests.scenario.fault;

import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code add-device}: a device a {@code remove-device} detached is plugged back in: every link of
 * the component is brought up at both ends at the fault's model time, as a {@code link-up} at each,
 * and the run goes on once each trained. Under fabric management the partners' device managers
 * report the ports that came up (PI-5) and the fabric manager finds the device by walking on from
 * them (AS-FM section 4).
 */
public final class AddDeviceFault implements FaultType {

  @Override
  public String name() {
    return "add-device";
  }

  @Override
  public String summary() {
    return "plug component TARGET back in: every link of it up at both ends, waiting until each trained";
  }

  @Override
  public Target target() {
    return Target.COMPONENT;
  }

  @Override
  public String apply(FaultSpec fault, int step, long modelAt, RunningRack rack) throws Exception {
    List<String> up = new ArrayList<>();
    for (String end : rack.topology().endsOf(fault.target())) {
      if (rack.topology().linkAt(end).isPresent()) {
        up.add(LinkUpFault.up(end, modelAt, rack));
      }
    }
    return fault.target() + " added: " + String.join("; ", up);
  }

  @Override
  public Optional<String> notRandom() {
    return Optional.of("it only plugs back a device a remove-device detached");
  }

  @Override
  public boolean takesLinkDown(FaultSpec fault, int step) {
    return false;
  }
}
