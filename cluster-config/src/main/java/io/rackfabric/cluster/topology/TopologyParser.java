package io.rackfabric.cluster.topology;

import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.rackfabric.cluster.topology.RackDraft.EndpointDraft;
import io.rackfabric.cluster.topology.RackDraft.LinkDraft;
import io.rackfabric.cluster.topology.RackDraft.NodeDraft;
import io.rackfabric.cluster.topology.RackDraft.PortDraft;
import io.rackfabric.cluster.topology.RackDraft.SwitchDraft;
import io.rackfabric.fabric.ntb.NtbConfig;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns the parsed HOCON of one topology file into a {@link Topology}, reporting every problem to
 * {@link Problems}. Works in two passes: first each object on its own (keys, types, ranges:
 * {@link RackSection}, {@link SwitchSection}), then the cross-references (link ends and attachment
 * defaults: {@link LinkWiring}; overlaps: {@link SwitchWindows}, {@link PcieDomains}; then the
 * {@link GlobalMemorySection} and {@link ControlPlaneSection}, which refer to the rack). A
 * component that failed the first pass still counts as declared in the second, so one typo does
 * not turn into a cascade of "unknown component" messages. The order of the steps is the order
 * problems on one line are listed in, so it is kept as it is.
 */
final class TopologyParser {

  private final Problems problems;
  private final HostCheck hostCheck;
  private final RackDraft draft = new RackDraft();

  TopologyParser(Problems problems) {
    this(problems, HostCheck.NONE);
  }

  TopologyParser(Problems problems, HostCheck hostCheck) {
    this.problems = problems;
    this.hostCheck = hostCheck;
  }

  Topology parse(ConfigObject root, String source) {
    topLevelUnknownKeys(root);
    if (!root.containsKey("rack")) {
      problems.add(root.origin(), "rack", "missing (required): the file must hold one rack { ... }");
      return null;
    }
    ConfigValue rackValue = root.get("rack");
    if (rackValue.valueType() != ConfigValueType.OBJECT) {
      problems.add(rackValue.origin(), "rack", "expected an object { ... }, got " + Fields.describe(rackValue));
      return null;
    }
    // pass 1: each object on its own
    String name = new RackSection(problems, draft).read(new Fields((ConfigObject) rackValue, "rack", problems));

    // pass 2: cross-references
    Map<String, LinkDraft> linkByEnd = new LinkWiring(draft).wire();
    SwitchWindows.check(draft);
    PcieDomains domains = PcieDomains.join(draft);
    ConfigValue memoryValue = root.get(GlobalMemorySection.KEY);
    GlobalMemorySection memory = memoryValue == null ? null
        : GlobalMemorySection.read(memoryValue, problems, draft, domains, linkByEnd);
    ConfigValue pairValue = root.get(ControlPlaneSection.KEY);
    ControlPlaneSection controlPlane = pairValue == null ? null : ControlPlaneSection.read(pairValue, problems);

    if (!problems.isEmpty() || name == null) {
      return null;
    }
    GlobalMemorySpec globalMemory = memory == null ? null : memory.spec();
    Topology topology = build(name, source, globalMemory);
    if (topology != null && globalMemory != null && globalMemory.managementHost() != null) {
      new FailoverHardwareCheck(topology, globalMemory, memory.ntbPorts(), failoverPlaces(memory.at())).check();
    }
    if (topology != null && controlPlane != null) {
      ControlPlaneSpec pair = controlPlane.check(topology);
      topology = pair == null ? null : topology.withControlPlane(pair);
    }
    if (problems.isEmpty()) {
      // Last, and only for a sound file: a look-up can take seconds, and says nothing of a typo.
      resolveHosts();
    }
    return problems.isEmpty() ? topology : null;
  }

  private FailoverHardwareCheck.Places failoverPlaces(Fields section) {
    return new FailoverHardwareCheck.Places() {
      @Override
      public Fields component(String id) {
        return draft.declared.get(id);
      }

      @Override
      public Fields port(String end) {
        return draft.portDraft(end).at;
      }

      @Override
      public Fields section() {
        return section;
      }
    };
  }

  /** Top-level keys other than {@code rack}, {@code global-memory} and {@code control-plane} are mistakes. */
  private void topLevelUnknownKeys(ConfigObject root) {
    for (String k : root.keySet()) {
      if (!k.equals("rack") && !k.equals(GlobalMemorySection.KEY) && !k.equals(ControlPlaneSection.KEY)) {
        problems.add(root.get(k).origin(), k,
            "unknown key; allowed at top level: rack, " + GlobalMemorySection.KEY + ", " + ControlPlaneSection.KEY);
      }
    }
  }

  private void resolveHosts() {
    int index = 0;
    for (NodeDraft n : draft.nodes.values()) {
      NodeSpec spec = n.spec();
      if (hostCheck.covers(index++, spec.name()) && !HostCheck.resolves(spec.host())) {
        n.at().error("host", "host = \"" + spec.host() + "\" does not resolve to an address");
      }
    }
  }

  private Topology build(String name, String source, GlobalMemorySpec globalMemory) {
    List<NodeSpec> nodeSpecs = draft.nodes.values().stream().map(NodeDraft::spec).toList();
    List<SwitchSpec> switchSpecs = new ArrayList<>();
    for (SwitchDraft s : draft.switches) {
      List<PortConfig> ports = new ArrayList<>();
      for (PortDraft p : s.ports.values()) {
        PortConfig config = portConfig(p);
        if (config != null) {
          ports.add(config);
        }
      }
      switchSpecs.add(new SwitchSpec(s.id, s.node, ports, s.multicast));
    }
    List<EndpointSpec> endpointSpecs = new ArrayList<>();
    for (EndpointDraft e : draft.endpoints) {
      endpointSpecs.add(new EndpointSpec(e.id, e.node, e.bdf, e.root, e.bars, e.relay, e.device));
    }
    List<LinkSpec> linkSpecs = new ArrayList<>();
    for (LinkDraft l : draft.links) {
      linkSpecs.add(new LinkSpec(l.a, l.b, l.params));
    }
    return problems.isEmpty()
        ? new Topology(name, nodeSpecs, switchSpecs, endpointSpecs, linkSpecs, source, globalMemory)
        : null;
  }

  /** The fabric's own constructors check again; what they reject is reported, not thrown. */
  private PortConfig portConfig(PortDraft p) {
    try {
      if (p.role == PortRole.NTB) {
        return new PortConfig(p.name, p.number, p.role, p.virtualSwitch, null,
            new NtbConfig(p.virtualBdf, p.linkBars, p.virtualBars));
      }
      return new PortConfig(p.name, p.number, p.role, p.virtualSwitch,
          new BridgeRegisters(p.buses[0], p.buses[1], p.buses[2], p.memory, p.prefetchable), null, p.acsRedirect);
    } catch (IllegalArgumentException e) {
      p.at.error("port " + p.name + ": " + e.getMessage());
      return null;
    }
  }
}
