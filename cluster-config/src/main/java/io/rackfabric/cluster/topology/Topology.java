package io.rackfabric.cluster.topology;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A validated rack: cluster nodes, switch chips, endpoints and the links between them, as loaded
 * by {@link TopologyLoader}. Everything here is the rack's initial state; the running emulation
 * changes port registers through the controller, not by editing this.
 *
 * @param source where it was loaded from (file name or bundled resource), for messages
 * @param globalMemorySpec the file's {@code global-memory} section, or null when it has none
 */
public record Topology(
    String name,
    List<NodeSpec> nodes,
    List<SwitchSpec> switches,
    List<EndpointSpec> endpoints,
    List<LinkSpec> links,
    String source,
    GlobalMemorySpec globalMemorySpec,
    ControlPlaneSpec controlPlane) {

  public Topology {
    nodes = List.copyOf(nodes);
    switches = List.copyOf(switches);
    endpoints = List.copyOf(endpoints);
    links = List.copyOf(links);
  }

  /** A rack without a {@code control-plane} section. */
  public Topology(String name, List<NodeSpec> nodes, List<SwitchSpec> switches, List<EndpointSpec> endpoints,
      List<LinkSpec> links, String source, GlobalMemorySpec globalMemorySpec) {
    this(name, nodes, switches, endpoints, links, source, globalMemorySpec, null);
  }

  /** The same rack with the management-host pair {@code pair}. */
  public Topology withControlPlane(ControlPlaneSpec pair) {
    return new Topology(name, nodes, switches, endpoints, links, source, globalMemorySpec, pair);
  }

  /** A rack without a {@code global-memory} section. */
  public Topology(
      String name,
      List<NodeSpec> nodes,
      List<SwitchSpec> switches,
      List<EndpointSpec> endpoints,
      List<LinkSpec> links,
      String source) {
    this(name, nodes, switches, endpoints, links, source, null);
  }

  /** The global memory layout, when the file has a {@code global-memory} section. */
  public Optional<GlobalMemoryLayout> globalMemory() {
    return Optional.ofNullable(globalMemorySpec).map(GlobalMemorySpec::layout);
  }

  /** The compute hosts' endpoint ids in layout order (CH1 first); empty without the section. */
  public List<String> computeHostIds() {
    return globalMemorySpec == null ? List.of() : globalMemorySpec.computeHosts();
  }

  /** The node the cluster is seeded from: the first one listed. */
  public NodeSpec seed() {
    return nodes.get(0);
  }

  public Optional<NodeSpec> node(String nodeName) {
    return nodes.stream().filter(n -> n.name().equals(nodeName)).findFirst();
  }

  public Optional<Component> component(String id) {
    Optional<SwitchSpec> sw = switchSpec(id);
    return sw.isPresent() ? Optional.of(sw.get()) : endpoint(id).map(e -> (Component) e);
  }

  public Optional<SwitchSpec> switchSpec(String id) {
    return switches.stream().filter(s -> s.id().equals(id)).findFirst();
  }

  public Optional<EndpointSpec> endpoint(String id) {
    return endpoints.stream().filter(e -> e.id().equals(id)).findFirst();
  }

  /**
   * The link ends of component {@code id}: a switch chip's ports ({@code "sw1.down1"}) in file
   * order, an endpoint itself; empty for an id that names neither.
   */
  public List<String> endsOf(String id) {
    Optional<SwitchSpec> sw = switchSpec(id);
    if (sw.isPresent()) {
      return sw.get().ports().stream().map(p -> LinkSpec.end(id, p.name())).toList();
    }
    return endpoint(id).isPresent() ? List.of(id) : List.of();
  }

  /** The link attached to an end ({@code "ep2"} or {@code "sw1.down1"}), if any. */
  public Optional<LinkSpec> linkAt(String end) {
    return links.stream().filter(l -> l.touches(end)).findFirst();
  }

  /** The components a node runs, switches first, each in file order. */
  public List<Component> placedOn(String nodeName) {
    List<Component> placed = new ArrayList<>();
    switches.stream().filter(s -> s.node().equals(nodeName)).forEach(placed::add);
    endpoints.stream().filter(e -> e.node().equals(nodeName)).forEach(placed::add);
    return placed;
  }

  /**
   * The links with one end on node {@code a} and the other on node {@code b}, in file order: what
   * a cut between the two nodes severs. None when {@code a} and {@code b} are one node.
   */
  public List<LinkSpec> linksBetween(String a, String b) {
    if (a.equals(b)) {
      return List.of();
    }
    return links.stream().filter(l -> {
      String na = nodeOf(l.a());
      String nb = nodeOf(l.b());
      return (a.equals(na) && b.equals(nb)) || (b.equals(na) && a.equals(nb));
    }).toList();
  }

  /** The end of {@code link} on node {@code nodeName}, if it has one there. */
  public Optional<String> endOn(LinkSpec link, String nodeName) {
    return nodeName.equals(nodeOf(link.a())) ? Optional.of(link.a())
        : nodeName.equals(nodeOf(link.b())) ? Optional.of(link.b()) : Optional.empty();
  }

  /** Whether the management-host pair's two hosts run on nodes {@code a} and {@code b}, one each. */
  public boolean pairBetween(String a, String b) {
    if (controlPlane == null) {
      return false;
    }
    String master = endpoint(controlPlane.master()).map(EndpointSpec::node).orElse("");
    String backup = endpoint(controlPlane.backup()).map(EndpointSpec::node).orElse("");
    return (a.equals(master) && b.equals(backup)) || (a.equals(backup) && b.equals(master));
  }

  /** The node a link end's component runs on, or null for an end of no component. */
  private String nodeOf(String end) {
    return component(LinkSpec.componentOf(end)).map(Component::node).orElse(null);
  }

  /** Every component id, switches first, for "known ids" hints in messages. */
  public List<String> componentIds() {
    List<String> ids = new ArrayList<>();
    switches.forEach(s -> ids.add(s.id()));
    endpoints.forEach(e -> ids.add(e.id()));
    return ids;
  }

  /**
   * Where root {@code rootId}'s link leads: the memory and prefetchable windows of the upstream
   * port it sits on (what a relaying root sends back down); empty when it sits on none.
   */
  public List<AddressRange> relayWindows(String rootId) {
    List<AddressRange> windows = new ArrayList<>();
    linkAt(rootId).map(l -> l.other(rootId)).ifPresent(end -> switchSpec(LinkSpec.componentOf(end))
        .flatMap(s -> s.ports().stream().filter(p -> p.name().equals(LinkSpec.portOf(end))).findFirst())
        .filter(p -> p.role() == PortRole.UPSTREAM)
        .ifPresent(p -> {
          if (p.bridge().memory() != null) {
            windows.add(p.bridge().memory());
          }
          if (p.bridge().prefetchable() != null) {
            windows.add(p.bridge().prefetchable());
          }
        }));
    return windows;
  }

  /** The switch's initial routing table, as its port actors will start with it. */
  public RoutingTable routingTable(String switchId) {
    SwitchSpec sw =
        switchSpec(switchId)
            .orElseThrow(() -> new IllegalArgumentException(
                "no switch '" + switchId + "' in " + source + " (switches: "
                    + switches.stream().map(SwitchSpec::id).toList() + ")"));
    return new RoutingTable(sw.ports(), sw.multicast());
  }
}
