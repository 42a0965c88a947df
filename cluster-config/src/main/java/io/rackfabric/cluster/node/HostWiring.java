package io.rackfabric.cluster.node;

import io.rackfabric.cluster.topology.LinkSpec;
import io.rackfabric.cluster.topology.SwitchSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.Plane;
import java.util.HashMap;
import java.util.Map;

/** What a compute host's software must know of its own hardware, read off the topology. */
public final class HostWiring {

  private HostWiring() {}

  /**
   * A CH's root ports by requester ID, each with the plane it leads to: the downstream ports of the
   * switch below the CH's root whose window holds the CH's view of that plane. These are the IDs
   * its AER messages carry.
   *
   * @throws IllegalArgumentException when the CH has no such ports
   */
  public static Map<String, Plane> rootPorts(Topology topology, String chId, GlobalMemoryLayout layout) {
    LinkSpec link = topology.linkAt(chId).orElseThrow(() ->
        new IllegalArgumentException("compute host " + chId + " has no link"));
    String switchId = LinkSpec.componentOf(link.other(chId));
    SwitchSpec chip = topology.switchSpec(switchId).orElseThrow(() -> new IllegalArgumentException(
        "compute host " + chId + " is linked to " + switchId + ", not to its root ports' switch"));
    int internal = -1;
    for (PortConfig p : chip.ports()) {
      if (p.role() == PortRole.UPSTREAM) {
        internal = p.bridge().secondaryBus();
      }
    }
    Map<String, Plane> ports = new HashMap<>();
    for (PortConfig p : chip.ports()) {
      AddressRange window = p.role() == PortRole.DOWNSTREAM ? p.bridge().prefetchable() : null;
      for (Plane plane : Plane.values()) {
        if (window != null && window.contains(layout.chView(plane).base())) {
          ports.put(Bdf.format(Bdf.of(internal, p.number(), 0)), plane);
        }
      }
    }
    if (internal < 0 || !ports.containsValue(Plane.PRIMARY) || !ports.containsValue(Plane.SECONDARY)) {
      throw new IllegalArgumentException("compute host " + chId + ": switch " + switchId
          + " has no upstream port and two downstream ports over the primary and secondary views");
    }
    return ports;
  }

  /**
   * The ports of the MH's domain that lead to each plane's switch, by requester ID: the
   * downstream ports of the switch the MH's root sits on whose window holds that plane's CH slots.
   * A fatal error from one of them means the plane is cut off for every CH.
   */
  public static Map<String, Plane> planePorts(Topology topology, String mhId, GlobalMemoryLayout layout) {
    Map<String, Plane> ports = new HashMap<>();
    LinkSpec link = topology.linkAt(mhId).orElse(null);
    SwitchSpec chip = link == null ? null : topology.switchSpec(LinkSpec.componentOf(link.other(mhId))).orElse(null);
    if (chip == null) {
      return ports;
    }
    PortConfig up = chip.ports().stream()
        .filter(p -> LinkSpec.end(chip.id(), p.name()).equals(link.other(mhId))).findFirst().orElse(null);
    if (up == null || up.role() != PortRole.UPSTREAM) {
      return ports;
    }
    for (PortConfig p : chip.ports()) {
      AddressRange window = p.role() == PortRole.DOWNSTREAM && p.virtualSwitch() == up.virtualSwitch()
          ? p.bridge().prefetchable() : null;
      for (Plane plane : Plane.values()) {
        if (window != null && window.contains(layout.mhHostsRange(plane).base())) {
          ports.put(Bdf.format(Bdf.of(up.bridge().secondaryBus(), p.number(), 0)), plane);
        }
      }
    }
    return ports;
  }
}
