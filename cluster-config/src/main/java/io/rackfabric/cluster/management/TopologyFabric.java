package io.rackfabric.cluster.management;

import io.rackfabric.cluster.topology.ControlPlaneSpec;
import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.LinkSpec;
import io.rackfabric.cluster.topology.SwitchSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.management.DeviceDescription;
import io.rackfabric.fabric.management.DeviceDescriptions;
import io.rackfabric.fabric.management.StructuralFabric;
import io.rackfabric.fabric.management.StructuralFabric.PortRef;
import io.rackfabric.fabric.settings.FabricSettings;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * A topology's devices as the fabric manager sees them: every switch chip and endpoint with its
 * capabilities (AS-FM section 3.1), every link between two ports, and each device's serial number.
 * Every value follows from the topology and the fabric's settings: a chip's ports and their roles
 * and virtual switches, each link's generation and lanes, Max_Payload_Size; a trained port is
 * DL_Active when links activate themselves ({@code rackfabric.fabric.auto-activate}), else
 * DL_Protected, waiting for the fabric manager. The control-plane pair's hosts are the fabric
 * manager candidates, the master first.
 *
 * @param descriptions switches first, then endpoints, each in file order
 * @param links each topology link as two ports
 * @param ids each serial number's component id
 * @param byId each component id's description
 * @param switchesById the topology's switch chips by id
 */
public record TopologyFabric(Topology topology, List<DeviceDescription> descriptions, List<List<PortRef>> links,
    Map<Long, String> ids, Map<String, DeviceDescription> byId, Map<String, SwitchSpec> switchesById) {

  public TopologyFabric {
    descriptions = List.copyOf(descriptions);
    links = List.copyOf(links);
    ids = Map.copyOf(ids);
    byId = Map.copyOf(byId);
    switchesById = Map.copyOf(switchesById);
  }

  private TopologyFabric(Topology topology, List<DeviceDescription> descriptions, List<List<PortRef>> links,
      Map<Long, String> ids) {
    this(topology, descriptions, links, ids,
        descriptions.stream().collect(Collectors.toMap(DeviceDescription::id, d -> d)),
        topology.switches().stream().collect(Collectors.toMap(SwitchSpec::id, s -> s)));
  }

  public static TopologyFabric of(Topology topology, FabricSettings settings) {
    return of(topology, settings, defaultCandidates(topology));
  }

  /**
   * The same with {@code candidates} as the fabric-manager candidates, each with its priority (0 the
   * first choice); an id that is no endpoint is refused, naming it.
   */
  public static TopologyFabric of(Topology topology, FabricSettings settings, Map<String, Integer> candidates) {
    for (String c : candidates.keySet()) {
      if (topology.endpoint(c).isEmpty()) {
        throw new IllegalArgumentException("fabric-manager candidate " + c + " is not an endpoint of " + topology.name());
      }
    }
    DataLinkState trained = settings.autoActivate() ? DataLinkState.DL_ACTIVE : DataLinkState.DL_PROTECTED;
    Map<String, Map<Integer, LinkParameters>> linksAt = new HashMap<>();
    List<List<PortRef>> links = new ArrayList<>();
    Map<String, SwitchSpec> switches =
        topology.switches().stream().collect(Collectors.toMap(SwitchSpec::id, s -> s));
    for (LinkSpec l : topology.links()) {
      PortRef a = portRef(switches, l.a());
      PortRef b = portRef(switches, l.b());
      linksAt.computeIfAbsent(a.device(), k -> new HashMap<>()).put(a.port(), l.params());
      linksAt.computeIfAbsent(b.device(), k -> new HashMap<>()).put(b.port(), l.params());
      links.add(List.of(a, b));
    }
    Map<Long, String> ids = new LinkedHashMap<>();
    List<DeviceDescription> devices = new ArrayList<>();
    for (SwitchSpec s : topology.switches()) {
      devices.add(DeviceDescriptions.switchChip(s.id(), serial(s.id(), ids), settings.maxPayload(), s.ports(),
          linksAt.getOrDefault(s.id(), Map.of()), trained));
    }
    for (EndpointSpec e : topology.endpoints()) {
      devices.add(DeviceDescriptions.endpoint(e.id(), serial(e.id(), ids), settings.maxPayload(),
          linksAt.getOrDefault(e.id(), Map.of()).get(0), trained, candidates.getOrDefault(e.id(), -1)));
    }
    return new TopologyFabric(topology, devices, links, ids);
  }

  /** A fresh fabric of these devices and links, every port as the topology starts it. */
  public StructuralFabric structural() {
    return new StructuralFabric(descriptions, links);
  }

  /** The serial number of component {@code id}. */
  public long serialOf(String id) {
    return description(id).orElseThrow(() -> new IllegalArgumentException(
        "no component id=" + id + " in " + topology.source() + " (components: " + topology.componentIds() + ")"))
        .serial();
  }

  public Optional<DeviceDescription> description(String id) {
    return Optional.ofNullable(byId.get(id));
  }

  /** A link end as the topology writes it ({@code "tor.nic"}, {@code "mmh"}) for a device's port. */
  public String endName(long serial, int port) {
    String id = ids.get(serial);
    if (id == null) {
      return String.format("%016X.%d", serial, port);
    }
    SwitchSpec chip = switchesById.get(id);
    if (chip == null) {
      return id;
    }
    return chip.port(port).map(p -> LinkSpec.end(id, p.name())).orElse(id + ".#" + port);
  }

  /**
   * A device's serial number: from its component id alone (a name-based UUID's high half), so it
   * stays the device's whichever topology file holds it.
   */
  private static long serial(String id, Map<Long, String> ids) {
    long serial = UUID.nameUUIDFromBytes(("rackfabric-device:" + id).getBytes(StandardCharsets.UTF_8))
        .getMostSignificantBits();
    String other = ids.putIfAbsent(serial, id);
    if (other != null) {
      throw new IllegalArgumentException("components " + other + " and " + id + " get one serial number");
    }
    return serial;
  }

  private static PortRef portRef(Map<String, SwitchSpec> switches, String end) {
    String id = LinkSpec.componentOf(end);
    String port = LinkSpec.portOf(end);
    if (port == null) {
      return new PortRef(id, 0);
    }
    return new PortRef(id, Optional.ofNullable(switches.get(id)).flatMap(s -> s.port(port)).orElseThrow(
        () -> new IllegalArgumentException("link end " + end + ": no such switch port")).number());
  }

  /** The control-plane pair, the master first; none without one. */
  public static Map<String, Integer> defaultCandidates(Topology topology) {
    ControlPlaneSpec pair = topology.controlPlane();
    if (pair == null) {
      return Map.of();
    }
    return Map.of(pair.master(), 0, pair.backup(), 1);
  }
}
