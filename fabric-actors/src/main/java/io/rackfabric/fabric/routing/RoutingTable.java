package io.rackfabric.fabric.routing;

import io.rackfabric.fabric.wire.WireMessage;
import java.util.ArrayList;
import java.util.List;

/**
 * An immutable snapshot of one switch chip's routing state: every port's configuration and the
 * multicast groups. The chip publishes a new snapshot to its ports whenever a port's registers or
 * virtual-switch membership change; ports route with the snapshot they hold.
 */
public record RoutingTable(List<PortConfig> ports, List<MulticastGroup> multicast)
    implements WireMessage {

  public RoutingTable {
    ports = List.copyOf(ports);
    multicast = List.copyOf(multicast);
    for (int i = 0; i < ports.size(); i++) {
      for (int j = i + 1; j < ports.size(); j++) {
        if (ports.get(i).number() == ports.get(j).number()) {
          throw new IllegalArgumentException("two ports with number=" + ports.get(i).number());
        }
      }
    }
  }

  public PortConfig port(int number) {
    for (PortConfig p : ports) {
      if (p.number() == number) {
        return p;
      }
    }
    return null;
  }

  /** The upstream port of a virtual switch, or null if it has none. */
  public PortConfig upstream(int virtualSwitch) {
    for (PortConfig p : ports) {
      if (p.role() == PortRole.UPSTREAM && p.virtualSwitch() == virtualSwitch) {
        return p;
      }
    }
    return null;
  }

  /** The bus inside a virtual switch (its upstream bridge's secondary bus), or -1. */
  public int internalBus(int virtualSwitch) {
    PortConfig up = upstream(virtualSwitch);
    return up == null ? -1 : up.bridge().secondaryBus();
  }

  public RoutingTable withPort(PortConfig changed) {
    List<PortConfig> next = new ArrayList<>(ports);
    next.replaceAll(p -> p.number() == changed.number() ? changed : p);
    return new RoutingTable(next, multicast);
  }
}
