package io.rackfabric.cluster.topology;

import io.rackfabric.fabric.routing.MulticastGroup;
import io.rackfabric.fabric.routing.PortConfig;
import java.util.List;
import java.util.Optional;

/** A switch chip: its ports' initial configuration and its multicast groups. */
public record SwitchSpec(String id, String node, List<PortConfig> ports, List<MulticastGroup> multicast)
    implements Component {

  public SwitchSpec {
    ports = List.copyOf(ports);
    multicast = List.copyOf(multicast);
  }

  public Optional<PortConfig> port(String name) {
    return ports.stream().filter(p -> p.name().equals(name)).findFirst();
  }

  public Optional<PortConfig> port(int number) {
    return ports.stream().filter(p -> p.number() == number).findFirst();
  }
}
