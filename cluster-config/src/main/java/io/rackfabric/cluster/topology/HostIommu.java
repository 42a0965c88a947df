package io.rackfabric.cluster.topology;

import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A host's IOMMU turned on, as the fabric sees it (Device Lending, sections 6 and 7.1): the I/O
 * virtual addresses of its devices are resolved at its root, so every request a device of its
 * domain sends to another device of it (the NTB adapter beside it included) goes up through the
 * root and back down instead of across the switch. In the topology that is ACS peer-to-peer
 * redirect on every downstream port of the host's switches and a relaying root. A transformation
 * of a loaded topology, so files need not come in two copies.
 */
public final class HostIommu {

  private HostIommu() {}

  /**
   * {@code topology} with root {@code host}'s IOMMU on.
   *
   * @throws IllegalArgumentException naming the host when it is not a root on a switch's upstream port
   */
  public static Topology enable(Topology topology, String host) {
    topology.endpoint(host).filter(EndpointSpec::root).orElseThrow(
        () -> new IllegalArgumentException("iommu host=" + host + " is not a root (a host) of " + topology.name()));
    String top = topology.linkAt(host).map(l -> l.other(host))
        .filter(end -> topology.switchSpec(LinkSpec.componentOf(end))
            .flatMap(s -> s.port(LinkSpec.portOf(end))).map(p -> p.role() == PortRole.UPSTREAM).orElse(false))
        .map(LinkSpec::componentOf)
        .orElseThrow(() -> new IllegalArgumentException("iommu host=" + host
            + " sits on no switch's upstream port: nothing below it would be redirected to it"));
    Set<String> domain = new LinkedHashSet<>();
    Deque<String> open = new ArrayDeque<>(List.of(top));
    while (!open.isEmpty()) {
      String id = open.poll();
      if (!domain.add(id)) {
        continue;
      }
      for (PortConfig p : topology.switchSpec(id).orElseThrow().ports()) {
        if (p.role() != PortRole.DOWNSTREAM) {
          continue; // an NTB port leads into another host's domain
        }
        topology.linkAt(LinkSpec.end(id, p.name())).map(l -> l.other(LinkSpec.end(id, p.name())))
            .filter(end -> topology.switchSpec(LinkSpec.componentOf(end)).isPresent())
            .ifPresent(end -> open.add(LinkSpec.componentOf(end)));
      }
    }
    List<SwitchSpec> switches = new ArrayList<>();
    for (SwitchSpec s : topology.switches()) {
      if (!domain.contains(s.id())) {
        switches.add(s);
        continue;
      }
      List<PortConfig> ports = s.ports().stream()
          .map(p -> p.role() == PortRole.DOWNSTREAM ? p.withAcsRedirect(true) : p).toList();
      switches.add(new SwitchSpec(s.id(), s.node(), ports, s.multicast()));
    }
    List<EndpointSpec> endpoints = topology.endpoints().stream()
        .map(e -> e.id().equals(host) ? new EndpointSpec(e.id(), e.node(), e.bdf(), true, e.bars(), true, e.device()) : e)
        .toList();
    return new Topology(topology.name(), topology.nodes(), switches, endpoints, topology.links(), topology.source(),
        topology.globalMemorySpec(), topology.controlPlane());
  }
}
