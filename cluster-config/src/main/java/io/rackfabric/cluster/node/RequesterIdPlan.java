package io.rackfabric.cluster.node;

import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.GlobalMemorySpec;
import io.rackfabric.cluster.topology.LinkSpec;
import io.rackfabric.cluster.topology.SwitchSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.ntb.NtbDirection;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.routing.RequesterIds;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.host.iommu.IsolationPlan;
import io.rackfabric.host.memory.Plane;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The NTBs' requester-ID tables programmed at start, in host order, and what follows from them:
 * under which ID each host's accesses arrive at each compute host, per plane (what its IOMMU
 * entries must name). Left to first use, the tables would hand out proxy IDs in traffic order and
 * the management host could not know them; programmed, {@link RequesterIds} predicts them exactly.
 *
 * <p>A pure function of the topology, so every node computes the same tables for the switches it
 * runs. Each CH's NTB port of a plane gets, toward the switch, the CH's root ID, then its devices'
 * (those in slots of its root complex, which it can lend); into the CH, the MH's root ID first,
 * then every other CH's proxy ID in host order, then the other CHs' devices' proxy IDs (so a
 * lent device's DMA arrives at its borrower under an ID the plan predicts, {@link
 * IsolationPlan.Target#deviceArrivalIds}, and the hosts' IDs are those of a rack without devices). A request from host B to host
 * C through a plane thus arrives at C as {@code proxyId(C's port, TO_VIRTUAL, proxyId(B's port,
 * TO_LINK, B's root))}, and the MH's as {@code proxyId(C's port, TO_VIRTUAL, MH's root)}.
 *
 * <p>Topologies without a management host, or hosts whose NTB ports cannot be found, are left as
 * they are (first use) and cannot be isolated.
 */
public final class RequesterIdPlan {

  /** The NTB port on a plane's switch chip where a CH's cable ends. */
  private record NtbPort(String switchId, int port) {}

  private final Topology topology;
  private final Map<String, RoutingTable> programmed;
  private final IsolationPlan isolation;
  /** Per CH, the ID its requests carry in the MH's domain through its primary NTB port. */
  private final Map<String, Integer> inMhDomain;

  private RequesterIdPlan(Topology topology, Map<String, RoutingTable> programmed, IsolationPlan isolation,
      Map<String, Integer> inMhDomain) {
    this.topology = topology;
    this.programmed = programmed;
    this.isolation = isolation;
    this.inMhDomain = inMhDomain;
  }

  public static RequesterIdPlan of(Topology topology) {
    GlobalMemorySpec spec = topology.globalMemorySpec();
    if (spec == null || spec.managementHost() == null) {
      return new RequesterIdPlan(topology, Map.of(), IsolationPlan.none(), Map.of());
    }
    String mh = spec.managementHost();
    int mhBdf = topology.endpoint(mh).map(EndpointSpec::bdf).orElse(-1);
    Map<Plane, Map<String, NtbPort>> ports = new EnumMap<>(Plane.class);
    for (Plane plane : Plane.values()) {
      Map<String, NtbPort> byHost = new LinkedHashMap<>();
      for (String ch : spec.computeHosts()) {
        NtbPort p = ntbPort(topology, ch, spec, plane);
        if (p != null && topology.endpoint(ch).isPresent()) {
          byHost.put(ch, p);
        }
      }
      ports.put(plane, byHost);
    }
    Map<String, RoutingTable> tables = new HashMap<>();
    // Toward the switch: each CH's root, alone in its domain, takes index 0 of its port.
    // Then its devices (those in slots of its root complex, which it could lend), in file order.
    Map<String, List<String>> devices = new LinkedHashMap<>();
    for (String ch : spec.computeHosts()) {
      devices.put(ch, devicesOf(topology, ch));
    }
    ports.forEach((plane, byHost) -> byHost.forEach((ch, p) -> {
      List<Integer> originals = new ArrayList<>(List.of(bdf(topology, ch)));
      devices.get(ch).forEach(d -> originals.add(bdf(topology, d)));
      program(topology, tables, p, NtbDirection.TO_LINK, originals);
    }));
    // Into each CH: the MH (when it reaches this plane), then the other CHs of the plane in host
    // order, whichever of the plane's NTB chips their ports are on (above 31 CHs a plane has several).
    Map<String, Plane> mhPlanes = HostWiring.planePorts(topology, mh, spec.layout());
    ports.forEach((plane, byHost) -> byHost.forEach((target, p) -> {
      List<Integer> originals = new ArrayList<>();
      if (mhBdf >= 0 && mhPlanes.containsValue(plane)) {
        originals.add(mhBdf);
      }
      byHost.forEach((ch, q) -> {
        if (!ch.equals(target)) {
          originals.add(linkProxy(tables, q, bdf(topology, ch)));
        }
      });
      // The other CHs' devices after every host, so the hosts' IDs are those of a rack without them.
      byHost.forEach((ch, q) -> {
        if (!ch.equals(target)) {
          devices.get(ch).forEach(d -> originals.add(linkProxy(tables, q, bdf(topology, d))));
        }
      });
      program(topology, tables, p, NtbDirection.TO_VIRTUAL, originals);
    }));
    List<IsolationPlan.Target> targets = new ArrayList<>();
    for (String target : spec.computeHosts()) {
      Map<String, List<Integer>> arrival = new HashMap<>();
      Map<String, List<Integer>> deviceArrival = new HashMap<>();
      for (Plane plane : Plane.values()) {
        NtbPort p = ports.get(plane).get(target);
        if (p == null) {
          continue;
        }
        RoutingTable table = tables.get(p.switchId());
        if (mhBdf >= 0 && mhPlanes.containsValue(plane)) {
          addId(arrival, mh, RequesterIds.proxyId(table, p.port(), NtbDirection.TO_VIRTUAL, mhBdf));
        }
        ports.get(plane).forEach((ch, q) -> {
          if (!ch.equals(target)) {
            int proxy = linkProxy(tables, q, bdf(topology, ch));
            addId(arrival, ch, RequesterIds.proxyId(table, p.port(), NtbDirection.TO_VIRTUAL, proxy));
            devices.get(ch).forEach(d -> addId(deviceArrival, d, RequesterIds.proxyId(table, p.port(),
                NtbDirection.TO_VIRTUAL, linkProxy(tables, q, bdf(topology, d)))));
          }
        });
      }
      if (!arrival.isEmpty()) {
        List<AddressRange> memory = topology.endpoint(target).orElseThrow().bars();
        targets.add(new IsolationPlan.Target(target, memory, ComponentKeys.endpoint(target), arrival, deviceArrival));
      }
    }
    Map<String, Integer> inMhDomain = new HashMap<>();
    ports.get(Plane.PRIMARY).forEach((ch, p) -> inMhDomain.put(ch, linkProxy(tables, p, bdf(topology, ch))));
    return new RequesterIdPlan(topology, Map.copyOf(tables), new IsolationPlan(targets), Map.copyOf(inMhDomain));
  }

  /**
   * The requester ID compute host {@code ch}'s requests carry in the management host's domain,
   * through its primary plane's NTB port (the port's proxy for the CH's root); empty when no NTB
   * port of the CH is programmed.
   */
  public Optional<Integer> idInManagementDomain(String ch) {
    return Optional.ofNullable(inMhDomain.get(ch));
  }

  /** The routing table switch {@code switchId} starts with: the topology's, NTB tables programmed. */
  public RoutingTable routingTable(String switchId) {
    RoutingTable t = programmed.get(switchId);
    return t != null ? t : topology.routingTable(switchId);
  }

  /** The hosts the management host can isolate, and the IDs every host arrives under at each. */
  public IsolationPlan isolationPlan() {
    return isolation;
  }

  /**
   * The NTB port {@code ch}'s cable of {@code plane} ends at: follow the CH's link to its root
   * ports' switch, take the downstream port whose window holds the CH's view of the plane, and
   * follow its cable. Null when the topology is not built that way.
   */
  private static NtbPort ntbPort(Topology topology, String ch, GlobalMemorySpec spec, Plane plane) {
    LinkSpec link = topology.linkAt(ch).orElse(null);
    SwitchSpec rp = link == null ? null : topology.switchSpec(LinkSpec.componentOf(link.other(ch))).orElse(null);
    if (rp == null) {
      return null;
    }
    long view = spec.layout().chView(plane).base();
    for (PortConfig p : rp.ports()) {
      if (p.role() != PortRole.DOWNSTREAM || p.bridge().prefetchable() == null
          || !p.bridge().prefetchable().contains(view)) {
        continue;
      }
      String end = LinkSpec.end(rp.id(), p.name());
      LinkSpec cable = topology.linkAt(end).orElse(null);
      if (cable == null) {
        return null;
      }
      String far = cable.other(end);
      SwitchSpec chip = topology.switchSpec(LinkSpec.componentOf(far)).orElse(null);
      String portName = LinkSpec.portOf(far);
      if (chip == null || portName == null) {
        return null;
      }
      return chip.ports().stream().filter(q -> q.name().equals(portName) && q.role() == PortRole.NTB)
          .findFirst().map(q -> new NtbPort(chip.id(), q.number())).orElse(null);
    }
    return null;
  }

  private static void program(Topology topology, Map<String, RoutingTable> tables, NtbPort p,
      NtbDirection direction, List<Integer> originals) {
    RoutingTable table = tables.computeIfAbsent(p.switchId(), topology::routingTable);
    PortConfig port = table.port(p.port());
    tables.put(p.switchId(), table.withPort(port.withNtb(RequesterIds.programAll(port.ntb(), direction, originals))));
  }

  /** The ID {@code original} (a CH's root) carries on the switch side of its NTB port {@code q}. */
  private static int linkProxy(Map<String, RoutingTable> tables, NtbPort q, int original) {
    return RequesterIds.proxyId(tables.get(q.switchId()), q.port(), NtbDirection.TO_LINK, original);
  }

  /**
   * The devices in slots of {@code ch}'s root complex: the endpoints, not hosts, on downstream
   * ports of the chip its root sits on (a device behind a further switch is not looked for).
   */
  private static List<String> devicesOf(Topology topology, String ch) {
    List<String> out = new ArrayList<>();
    LinkSpec link = topology.linkAt(ch).orElse(null);
    SwitchSpec rp = link == null ? null : topology.switchSpec(LinkSpec.componentOf(link.other(ch))).orElse(null);
    if (rp == null) {
      return out;
    }
    for (PortConfig p : rp.ports()) {
      if (p.role() != PortRole.DOWNSTREAM) {
        continue;
      }
      String end = LinkSpec.end(rp.id(), p.name());
      topology.linkAt(end).map(l -> l.other(end)).flatMap(topology::endpoint)
          .filter(e -> !e.root()).ifPresent(e -> out.add(e.id()));
    }
    return out;
  }

  private static int bdf(Topology topology, String endpoint) {
    return topology.endpoint(endpoint).orElseThrow().bdf();
  }

  private static void addId(Map<String, List<Integer>> arrival, String host, int id) {
    if (id >= 0) {
      arrival.computeIfAbsent(host, h -> new ArrayList<>()).add(id);
    }
  }
}
