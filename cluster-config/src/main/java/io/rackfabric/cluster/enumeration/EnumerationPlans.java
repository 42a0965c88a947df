package io.rackfabric.cluster.enumeration;

import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.GlobalMemorySpec;
import io.rackfabric.cluster.topology.LinkSpec;
import io.rackfabric.cluster.topology.SwitchSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.host.enumeration.AllocationPolicy;
import io.rackfabric.host.enumeration.Apertures;
import io.rackfabric.host.enumeration.DynamicAllocation;
import io.rackfabric.host.enumeration.Enumerator;
import io.rackfabric.host.enumeration.SlotAllocation;
import io.rackfabric.host.enumeration.SlotGroup;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.Plane;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What a root of a topology enumerates with: its apertures and, in slot mode, its slot groups.
 *
 * <ul>
 *   <li>Apertures are the platform's: they start where the topology's window on the root's
 *       upstream port starts (memory up to 4 GiB, prefetchable up to the address width), or
 *       {@link Apertures#DEFAULT} where it has none.
 *   <li>Slots, for a rack with a {@code global-memory} section (Ladon sections 4.1-4.2): in the
 *       management host's domain, every switch holding compute hosts' NTB ports is a group whose
 *       slot i is CH i's port there, with CH i's range of that plane ({@link
 *       GlobalMemoryLayout#mhRangeOf}) and, when the rack runs Ladon's fail-over, the plane's
 *       multicast page as the group's shared block; which plane a port serves is what its virtual
 *       side translates into (PMS1 or PMS2). In a compute host's own domain its two root ports are
 *       slots 1 (primary) and 2 (secondary) with the CH's views of PMS1 and PMS2 ({@link
 *       GlobalMemoryLayout#chView}).
 *   <li>Slots otherwise (Multi-peer Fig. 4): the downstream and NTB ports of the switch on the
 *       root's link, in port order, {@code slotSize} each from the memory aperture's base, {@code
 *       busesPerSlot} buses each.
 * </ul>
 */
public final class EnumerationPlans {

  /** Multi-peer Fig. 4: one bus and 1 MiB per slot. */
  public static final SlotParameters SEEDS_001 = new SlotParameters(1L << 20, 1);

  private EnumerationPlans() {}

  /** Slot geometry for racks without a global memory layout. */
  public record SlotParameters(long slotSize, int busesPerSlot) {
    public SlotParameters {
      if (slotSize <= 0 || (slotSize & (Enumerator.WINDOW_GRANULE - 1)) != 0) {
        throw new IllegalArgumentException("slot-size=" + slotSize + " is not a positive multiple of 1MiB");
      }
      if (busesPerSlot < 1 || busesPerSlot > 255) {
        throw new IllegalArgumentException("buses-per-slot=" + busesPerSlot + " not in [1,255]");
      }
    }
  }

  /** The root endpoints, in file order. */
  public static List<String> roots(Topology topology) {
    return topology.endpoints().stream().filter(EndpointSpec::root).map(EndpointSpec::id).toList();
  }

  /**
   * Where everything the root can enumerate sits, as {@link Enumerator#location} names it: switch
   * ports by end ({@code "tor.nic"}), endpoints by id. An NTB port reached over its own link is its
   * virtual side, where the root's domain ends.
   */
  public static Map<String, String> locations(Topology topology, String rootId) {
    Map<String, String> out = new LinkedHashMap<>();
    topology.linkAt(rootId).ifPresent(l -> visit(topology, l.other(rootId), Enumerator.location("", 0, 0), out));
    return out;
  }

  private static void visit(Topology t, String end, String location, Map<String, String> out) {
    out.put(end, location);
    PortConfig port = port(t, end);
    if (port == null || port.role() != PortRole.UPSTREAM) {
      return;
    }
    SwitchSpec sw = t.switchSpec(LinkSpec.componentOf(end)).orElseThrow();
    for (PortConfig q : sw.ports()) {
      if (q.role() != PortRole.UPSTREAM && q.virtualSwitch() == port.virtualSwitch()) {
        String qEnd = LinkSpec.end(sw.id(), q.name());
        String qLocation = Enumerator.location(location, q.number(), 0);
        out.put(qEnd, qLocation);
        if (q.role() == PortRole.DOWNSTREAM) {
          t.linkAt(qEnd).ifPresent(l -> visit(t, l.other(qEnd), Enumerator.location(qLocation, 0, 0), out));
        }
      }
    }
  }

  private static PortConfig port(Topology t, String end) {
    String name = LinkSpec.portOf(end);
    return name == null ? null
        : t.switchSpec(LinkSpec.componentOf(end)).flatMap(s -> s.port(name)).orElse(null);
  }

  /** The root's apertures, from the windows of the upstream port it is linked to. */
  public static Apertures apertures(Topology topology, String rootId) {
    long top = topology.globalMemory().map(GlobalMemoryLayout::addressBits)
        .map(bits -> bits >= 64 ? -1L : (1L << bits) - 1).orElse((1L << 48) - 1);
    PortConfig up = topology.linkAt(rootId).map(l -> port(topology, l.other(rootId)))
        .filter(p -> p.role() == PortRole.UPSTREAM).orElse(null);
    if (up == null) {
      return Apertures.DEFAULT;
    }
    BridgeRegisters b = up.bridge();
    AddressRange memory = b.memory() != null && Long.compareUnsigned(b.memory().base(), 0xFFFF_FFFFL) <= 0
        ? new AddressRange(b.memory().base(), 0xFFFF_FFFFL) : Apertures.DEFAULT.memory();
    AddressRange prefetchable = b.prefetchable() != null
        ? new AddressRange(b.prefetchable().base(), top) : Apertures.DEFAULT.prefetchable();
    return new Apertures(memory, prefetchable);
  }

  /**
   * The policy root {@code rootId} enumerates with in {@code mode}.
   *
   * @throws IllegalArgumentException naming the numbers when the slots do not fit
   */
  public static AllocationPolicy policy(Topology topology, String rootId, AllocationPolicy.Mode mode,
      SlotParameters parameters) {
    Apertures apertures = apertures(topology, rootId);
    if (mode == AllocationPolicy.Mode.DYNAMIC) {
      return new DynamicAllocation(apertures);
    }
    List<SlotGroup> groups = topology.globalMemorySpec() != null
        ? ladonGroups(topology, rootId, locations(topology, rootId))
        : seeds001Groups(topology, rootId, apertures, parameters);
    return new SlotAllocation(apertures, groups);
  }

  private static List<SlotGroup> seeds001Groups(Topology t, String rootId, Apertures apertures, SlotParameters p) {
    String partner = t.linkAt(rootId).map(l -> l.other(rootId)).orElse(null);
    PortConfig up = partner == null ? null : port(t, partner);
    if (up == null || up.role() != PortRole.UPSTREAM) {
      return List.of();
    }
    SwitchSpec sw = t.switchSpec(LinkSpec.componentOf(partner)).orElseThrow();
    List<PortConfig> slotPorts = sw.ports().stream()
        .filter(q -> q.role() != PortRole.UPSTREAM && q.virtualSwitch() == up.virtualSwitch())
        .sorted(Comparator.comparingInt(PortConfig::number)).toList();
    if (slotPorts.isEmpty()) {
      return List.of();
    }
    long base = (apertures.memory().base() + Enumerator.WINDOW_GRANULE - 1) & -Enumerator.WINDOW_GRANULE;
    List<SlotGroup.Slot> slots = new ArrayList<>();
    for (int k = 0; k < slotPorts.size(); k++) {
      slots.add(new SlotGroup.Slot(k + 1, slotPorts.get(k).number(), AddressRange.ofSize(base + k * p.slotSize(), p.slotSize())));
    }
    return List.of(new SlotGroup("slots", Enumerator.location("", 0, 0), p.busesPerSlot(), false, slots));
  }

  private static List<SlotGroup> ladonGroups(Topology t, String rootId, Map<String, String> locations) {
    GlobalMemorySpec gm = t.globalMemorySpec();
    GlobalMemoryLayout layout = gm.layout();
    int ch = gm.hostNumber(rootId);
    Map<String, List<SlotGroup.Slot>> slotsByGroup = new LinkedHashMap<>();
    Map<String, String> groupLocation = new LinkedHashMap<>();
    Map<String, Plane> groupPlane = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : locations.entrySet()) {
      PortConfig p = port(t, e.getKey());
      Plane plane = p == null || p.role() != PortRole.NTB ? null : plane(layout, p);
      String location = e.getValue();
      if (plane == null || location.indexOf('/') < 0) {
        continue; // not an NTB port of a plane, or one straight on the root with no port above it
      }
      String parent = location.substring(0, location.lastIndexOf('/'));
      if (ch > 0) {
        // Seen from the CH: the NTB's virtual side below one of its root ports.
        if (parent.indexOf('/') < 0) {
          continue;
        }
        String portPart = parent.substring(parent.lastIndexOf('/') + 1);
        int device = Integer.parseInt(portPart.substring(0, portPart.indexOf('.')), 16);
        slotsByGroup.computeIfAbsent("views", k -> new ArrayList<>()).add(new SlotGroup.Slot(
            plane == Plane.PRIMARY ? 1 : 2, device, layout.chView(plane)));
        groupLocation.put("views", parent.substring(0, parent.lastIndexOf('/')));
      } else {
        // Seen from the MH: compute host i's NTB port on a switch's internal bus.
        int host = gm.hostNumber(domainRoot(t, e.getKey()));
        if (host == 0) {
          continue;
        }
        String name = LinkSpec.componentOf(e.getKey()) + "/" + plane.pms().toLowerCase(Locale.ROOT);
        slotsByGroup.computeIfAbsent(name, k -> new ArrayList<>()).add(new SlotGroup.Slot(
            host, p.number(), layout.mhRangeOf(host, plane)));
        groupLocation.put(name, parent);
        groupPlane.put(name, plane);
      }
    }
    List<SlotGroup> groups = new ArrayList<>();
    slotsByGroup.forEach((name, slots) -> {
      Plane plane = groupPlane.get(name);
      AddressRange shared = plane != null && gm.managementHost() != null
          ? gm.ladonAddresses().multicastPage(plane) : null;
      groups.add(new SlotGroup(name, groupLocation.get(name), plane == null ? 1 : 0, true,
          slots.stream().sorted(Comparator.comparingInt(SlotGroup.Slot::slot)).toList(), shared));
    });
    return groups;
  }

  /** The plane an NTB port serves: PMS1 or PMS2, where its virtual side translates to. */
  private static Plane plane(GlobalMemoryLayout layout, PortConfig ntb) {
    if (ntb.ntb().virtualBars().isEmpty()) {
      return null;
    }
    long target = ntb.ntb().virtualBars().get(0).translatedBase();
    return layout.pms1().contains(target) ? Plane.PRIMARY : layout.pms2().contains(target) ? Plane.SECONDARY : null;
  }

  /** The root of the domain on the far side of an NTB port's link. */
  private static String domainRoot(Topology t, String ntbEnd) {
    String end = t.linkAt(ntbEnd).map(l -> l.other(ntbEnd)).orElse(null);
    for (int hops = 0; end != null && hops < 64; hops++) {
      PortConfig p = port(t, end);
      if (p == null) {
        return end;
      }
      SwitchSpec sw = t.switchSpec(LinkSpec.componentOf(end)).orElseThrow();
      Optional<PortConfig> up = sw.ports().stream()
          .filter(q -> q.role() == PortRole.UPSTREAM && q.virtualSwitch() == p.virtualSwitch()).findFirst();
      if (up.isEmpty()) {
        return null;
      }
      String upEnd = LinkSpec.end(sw.id(), up.get().name());
      end = t.linkAt(upEnd).map(l -> l.other(upEnd)).orElse(null);
    }
    return end;
  }
}
