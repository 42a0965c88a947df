package io.rackfabric.loadtests.scenario.language;

import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.LinkSpec;
import io.rackfabric.cluster.topology.NodeSpec;
import io.rackfabric.cluster.topology.SwitchSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.routing.PortConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a fault's {@code target} names, and the check that the topology has it. A fault kind picks
 * one of the constants here or brings its own (for instance for host actors a workload declares).
 */
public interface Target {

  /** How the README names what the target must be. */
  String description();

  /** Why {@code target} names nothing of this sort in the scenario, or empty when it does. */
  Optional<String> problem(String target, ScenarioContext context);

  /**
   * What a random fault schedule may aim at when the file lists no targets for the kind, in file
   * order; empty when this sort of target cannot be chosen from the topology alone.
   */
  default List<String> candidates(ScenarioContext context) {
    return List.of();
  }

  /**
   * What two targets share when they name the same thing: the link for both ends of a cable, else
   * the target itself. A random schedule keeps one fault at a time on each.
   */
  default String identity(String target, ScenarioContext context) {
    return target;
  }

  /** A link end: an endpoint id or {@code switch.port}, with a link attached. */
  Target LINK_END = new Target() {
    @Override
    public String description() {
      return "a link end: endpoint id or switch.port";
    }

    @Override
    public Optional<String> problem(String target, ScenarioContext context) {
      Topology t = context.topology();
      if (t.linkAt(target).isPresent()) {
        return Optional.empty();
      }
      String comp = LinkSpec.componentOf(target);
      String port = LinkSpec.portOf(target);
      if (port == null && t.switchSpec(comp).isPresent()) {
        return Optional.of("'" + target + "' is a switch; a link end is one of its ports, e.g. "
            + LinkSpec.end(comp, t.switchSpec(comp).get().ports().get(0).name()));
      }
      if (port != null && t.switchSpec(comp).isPresent() && t.switchSpec(comp).get().port(port).isPresent()) {
        return Optional.of("port " + target + " has no link (an empty slot)");
      }
      return Optional.of("no link end '" + target + "' in " + t.source() + " (ends: "
          + Names.hint(linkEnds(t)) + ")");
    }

    /** One end per link: the endpoint's where there is one (the host's cable), else the first. */
    @Override
    public List<String> candidates(ScenarioContext context) {
      Topology t = context.topology();
      return t.links().stream()
          .map(l -> t.endpoint(l.a()).isPresent() || t.endpoint(l.b()).isEmpty() ? l.a() : l.b()).toList();
    }

    @Override
    public String identity(String target, ScenarioContext context) {
      return context.topology().linkAt(target).map(LinkSpec::toString).orElse(target);
    }
  };

  /** A component: an endpoint or switch id. */
  Target COMPONENT = new Target() {
    @Override
    public String description() {
      return "a component: endpoint or switch id";
    }

    @Override
    public Optional<String> problem(String target, ScenarioContext context) {
      Topology t = context.topology();
      if (t.component(target).isPresent()) {
        return Optional.empty();
      }
      return Optional.of("no component '" + target + "' in " + t.source() + " (components: "
          + Names.hint(t.componentIds()) + ")");
    }

    @Override
    public List<String> candidates(ScenarioContext context) {
      return context.topology().componentIds();
    }
  };

  /** A cluster node of the topology. */
  Target NODE = new Target() {
    @Override
    public String description() {
      return "a node name of the topology";
    }

    @Override
    public Optional<String> problem(String target, ScenarioContext context) {
      Topology t = context.topology();
      if (t.node(target).isPresent()) {
        return Optional.empty();
      }
      return Optional.of("no node '" + target + "' in " + t.source() + " (nodes: "
          + Names.hint(t.nodes().stream().map(NodeSpec::name).toList()) + ")");
    }

    @Override
    public List<String> candidates(ScenarioContext context) {
      return context.topology().nodes().stream().map(NodeSpec::name).toList();
    }
  };

  /** Every end that has a link, in file order: endpoints, then switch ports. */
  static List<String> linkEnds(Topology t) {
    List<String> ends = new ArrayList<>();
    for (EndpointSpec e : t.endpoints()) {
      if (t.linkAt(e.id()).isPresent()) {
        ends.add(e.id());
      }
    }
    for (SwitchSpec s : t.switches()) {
      for (PortConfig p : s.ports()) {
        String end = LinkSpec.end(s.id(), p.name());
        if (t.linkAt(end).isPresent()) {
          ends.add(end);
        }
      }
    }
    return ends;
  }
}
