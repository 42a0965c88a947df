package io.rackfabric.cluster.node;

import io.rackfabric.cluster.management.TopologyFabric;
import io.rackfabric.cluster.topology.GlobalMemorySpec;
import io.rackfabric.cluster.topology.LinkSpec;
import io.rackfabric.cluster.topology.RootSwitch;
import io.rackfabric.cluster.topology.SwitchSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.host.failover.HostLossRule.ChPort;
import io.rackfabric.host.failover.PathTablePlanes;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.Plane;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;

/** What host software must know of its own hardware, read off the topology. */
public final class HostWiring {

  private HostWiring() {}

  /**
   * A downstream port of the switch below a host's root that leads to one plane: its switch, its
   * configuration, the plane, and the requester ID its AER messages carry.
   */
  public record PlanePort(String switchId, PortConfig port, Plane plane, String bdf) {}

  /**
   * A CH's root ports: the downstream ports of the switch below the CH's root whose window holds
   * the CH's view of each plane.
   *
   * @throws IllegalArgumentException when the CH has no primary and secondary root port
   */
  public static List<PlanePort> rootPortsOf(Topology topology, String chId, GlobalMemoryLayout layout) {
    List<PlanePort> ports = planePortsBelow(topology, chId, (p, plane) -> RootSwitch.holds(p, layout.chView(plane).base()));
    if (ports.stream().map(PlanePort::plane).distinct().count() < 2) {
      throw new IllegalArgumentException("compute host " + chId + " is not linked to a switch with an upstream"
          + " port and two downstream ports over its primary and secondary views");
    }
    return ports;
  }

  /**
   * The ports of the MH's domain that lead to each plane's switch: the downstream ports of the
   * switch the MH's root sits on whose window holds some of that plane's CH slots (above 31 CHs a
   * plane has several NTB chips, each below a port of its own). A fatal error from one of them is
   * taken as the plane cut off for every CH: the MH moves them all to the other plane, those a
   * healthy chip of the plane still reached too, rather than leave the dead chip's CHs behind.
   */
  public static List<PlanePort> planePortsOf(Topology topology, String mhId, GlobalMemoryLayout layout) {
    return planePortsBelow(topology, mhId, (p, plane) -> p.bridge().prefetchable() != null
        && p.bridge().prefetchable().overlaps(layout.mhHostsRange(plane)));
  }

  /**
   * How compute host {@code chId} reads the plane of each target from its path table: the MH's
   * and every CH's serial number by its target in the route list (0, then 1..N), and the plane
   * behind each of its root ports by port number.
   */
  public static PathTablePlanes pathTablePlanes(Topology topology, GlobalMemorySpec spec, String chId,
      TopologyFabric fabric) {
    Map<Long, Integer> targets = new HashMap<>();
    targets.put(fabric.serialOf(spec.managementHost()), 0);
    for (int i = 1; i <= spec.computeHosts().size(); i++) {
      targets.put(fabric.serialOf(spec.computeHosts().get(i - 1)), i);
    }
    Map<Integer, Plane> ports = new HashMap<>();
    rootPortsOf(topology, chId, spec.layout()).forEach(p -> ports.put(p.port().number(), p.plane()));
    return new PathTablePlanes(targets, ports);
  }

  /** {@link #rootPortsOf} by requester ID, as a CH's AER driver looks them up. */
  public static Map<String, Plane> rootPorts(Topology topology, String chId, GlobalMemoryLayout layout) {
    return byBdf(rootPortsOf(topology, chId, layout));
  }

  /** {@link #planePortsOf} by requester ID, as the MH's AER driver looks them up. */
  public static Map<String, Plane> planePorts(Topology topology, String mhId, GlobalMemoryLayout layout) {
    return byBdf(planePortsOf(topology, mhId, layout));
  }

  /**
   * The ports at the rack's end of each compute host's cables (its NTB ports, one per plane), by
   * the requester ID their AER messages carry in the management domain: the bus below the port's
   * chip's upstream port, the port's number. The MH takes a CH whose both ports failed as gone
   * ({@link io.rackfabric.host.failover.HostLossRule}).
   */
  public static Map<String, ChPort> chCablePorts(Topology topology, GlobalMemorySpec spec) {
    Map<String, ChPort> out = new HashMap<>();
    for (int i = 1; i <= spec.computeHosts().size(); i++) {
      String ch = spec.computeHosts().get(i - 1);
      for (PlanePort root : rootPortsOf(topology, ch, spec.layout())) {
        String end = LinkSpec.end(root.switchId(), root.port().name());
        String other = topology.linkAt(end).map(l -> l.other(end)).orElse(null);
        if (other == null || LinkSpec.portOf(other) == null) {
          continue;
        }
        SwitchSpec chip = topology.switchSpec(LinkSpec.componentOf(other)).orElse(null);
        PortConfig port = chip == null ? null : chip.ports().stream()
            .filter(p -> p.name().equals(LinkSpec.portOf(other))).findFirst().orElse(null);
        PortConfig up = chip == null || port == null ? null : chip.ports().stream()
            .filter(p -> p.role() == PortRole.UPSTREAM && p.virtualSwitch() == port.virtualSwitch())
            .findFirst().orElse(null);
        if (up != null) {
          out.put(Bdf.format(Bdf.of(up.bridge().secondaryBus(), port.number(), 0)), new ChPort(i, ch, root.plane()));
        }
      }
    }
    return out;
  }

  private static Map<String, Plane> byBdf(List<PlanePort> ports) {
    Map<String, Plane> m = new HashMap<>();
    ports.forEach(p -> m.put(p.bdf(), p.plane()));
    return m;
  }

  /**
   * The downstream ports, in the root's virtual switch, of the switch whose upstream port the
   * root {@code rootId} is linked to, each that {@code leads} to a plane.
   */
  private static List<PlanePort> planePortsBelow(Topology topology, String rootId,
      BiPredicate<PortConfig, Plane> leads) {
    List<PlanePort> ports = new ArrayList<>();
    RootSwitch below = RootSwitch.of(topology, rootId).orElse(null);
    if (below == null) {
      return ports;
    }
    for (PortConfig p : below.downstream()) {
      for (Plane plane : Plane.values()) {
        if (leads.test(p, plane)) {
          ports.add(new PlanePort(below.chip().id(), p, plane,
              Bdf.format(Bdf.of(below.up().bridge().secondaryBus(), p.number(), 0))));
        }
      }
    }
    return ports;
  }
}
