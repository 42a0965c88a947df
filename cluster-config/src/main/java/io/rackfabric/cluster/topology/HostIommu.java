package io.rackfabric.cluster.topology;

import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A host's IOMMU turned on, as the fabric sees it (Device Lending, sections 6 and 7.1): the I/O
 * virtual addresses of its devices are resolved at its root, so every request a device of its
 * domain sends to another device below a downstream port of it (an NTB adapter on a chip of its
 * own included) goes up through the root and back down instead of across the switch. (ACS
 * redirects toward downstream ports: an NTB port on the same chip as the device is not redirected.) In the topology that is ACS peer-to-peer
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
    PortConfig upstream = topology.linkAt(host).map(l -> l.other(host))
        .flatMap(end -> topology.switchSpec(LinkSpec.componentOf(end)).flatMap(s -> s.port(LinkSpec.portOf(end))))
        .filter(p -> p.role() == PortRole.UPSTREAM)
        .orElseThrow(() -> new IllegalArgumentException("iommu host=" + host
            + " sits on no switch's upstream port: nothing below it would be redirected to it"));
    String top = LinkSpec.componentOf(topology.linkAt(host).orElseThrow().other(host));
    // The host's domain: the virtual switch of each chip below it, entered by an upstream port
    // (an NTB port leads into another host's domain, a chip's other virtual switch to another host).
    Map<String, Integer> domain = new LinkedHashMap<>();
    Deque<Map.Entry<String, Integer>> open = new ArrayDeque<>(List.of(Map.entry(top, upstream.virtualSwitch())));
    while (!open.isEmpty()) {
      Map.Entry<String, Integer> at = open.poll();
      if (domain.putIfAbsent(at.getKey(), at.getValue()) != null) {
        continue;
      }
      for (PortConfig p : topology.switchSpec(at.getKey()).orElseThrow().ports()) {
        if (p.role() != PortRole.DOWNSTREAM || p.virtualSwitch() != at.getValue()) {
          continue;
        }
        String end = LinkSpec.end(at.getKey(), p.name());
        topology.linkAt(end).map(l -> l.other(end)).ifPresent(far -> topology.switchSpec(LinkSpec.componentOf(far))
            .flatMap(s -> s.port(LinkSpec.portOf(far))).filter(q -> q.role() == PortRole.UPSTREAM)
            .ifPresent(q -> open.add(Map.entry(LinkSpec.componentOf(far), q.virtualSwitch()))));
      }
    }
    List<SwitchSpec> switches = new ArrayList<>();
    for (SwitchSpec s : topology.switches()) {
      Integer vs = domain.get(s.id());
      if (vs == null) {
        switches.add(s);
        continue;
      }
      List<PortConfig> ports = s.ports().stream()
          .map(p -> p.role() == PortRole.DOWNSTREAM && p.virtualSwitch() == vs ? p.withAcsRedirect(true) : p).toList();
      switches.add(new SwitchSpec(s.id(), s.node(), ports, s.multicast()));
    }
    List<EndpointSpec> endpoints = topology.endpoints().stream()
        .map(e -> e.id().equals(host) ? new EndpointSpec(e.id(), e.node(), e.bdf(), true, e.bars(), true, e.device()) : e)
        .toList();
    return new Topology(topology.name(), topology.nodes(), switches, endpoints, topology.links(), topology.source(),
        topology.globalMemorySpec(), topology.controlPlane());
  }
}
