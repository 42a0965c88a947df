package io.rackfabric.cluster.topology;

import io.rackfabric.cluster.topology.RouteExplanation.Hop;
import io.rackfabric.cluster.topology.RouteExplanation.Kind;
import io.rackfabric.cluster.topology.RouteExplanation.Outcome;
import io.rackfabric.cluster.topology.RouteExplanation.Translation;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.fabric.ntb.NtbTranslation;
import io.rackfabric.fabric.ntb.NtbDirection;
import io.rackfabric.fabric.routing.MulticastGroup;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.routing.RouteDecision;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.routing.SwitchRouter;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.MemRead;
import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.tlp.Tlp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Follows a memory request through a topology's initial state, using the data plane's own
 * routing ({@link SwitchRouter}) and NTB translation ({@link NtbTranslation}), so what it says is
 * what the port actors will do. Pure: nothing is sent, nothing is changed.
 *
 * <p>The walk: a request from an endpoint stays local if one of the endpoint's own BARs (a root's
 * memory) holds the address, else it leaves on the endpoint's single link. Arriving at an NTB
 * port from its link means arriving at the virtual side: it must hit a virtual-side BAR
 * ({@link NtbTranslation#toLink}) before the switch routes it. Leaving through an NTB port
 * translates it into the slave domain ({@link NtbTranslation#toVirtual}) before it crosses the
 * link. Arriving at an endpoint, one of its BARs must hold the address.
 */
public final class RouteExplainer {

  /**
   * Far more than any sane rack's depth. The loader rejects loops of links inside a domain and NTB
   * requester-ID tables bound loops through NTBs, so this guards topologies built by hand.
   */
  static final int MAX_HOPS = 64;

  /** What the explained request carries: one dword, tag 0, traffic class 0. */
  private static final int LENGTH = 4;

  private final Topology topology;
  private final Map<String, RoutingTable> tables = new HashMap<>();

  public RouteExplainer(Topology topology) {
    this.topology = topology;
    for (SwitchSpec s : topology.switches()) {
      tables.put(s.id(), topology.routingTable(s.id()));
    }
  }

  /**
   * Explains a memory write (or read) of {@code address} issued by {@code fromComponent}: an
   * endpoint id, or {@code "switch.port"} for a request entering that switch through that port.
   *
   * @throws IllegalArgumentException naming the component when the topology has no such thing
   */
  public RouteExplanation explain(String fromComponent, long address, boolean read) {
    Walk walk = new Walk(fromComponent, address, read);
    String port = LinkSpec.portOf(fromComponent);
    String comp = LinkSpec.componentOf(fromComponent);
    if (port == null) {
      Optional<EndpointSpec> ep = topology.endpoint(comp);
      if (ep.isPresent()) {
        return walk.fromEndpoint(ep.get());
      }
      if (topology.switchSpec(comp).isPresent()) {
        throw new IllegalArgumentException(
            "'" + comp + "' is a switch: start from an endpoint or from one of its ports, e.g. "
                + LinkSpec.end(comp, topology.switchSpec(comp).get().ports().get(0).name()));
      }
      throw unknown(fromComponent);
    }
    SwitchSpec sw = topology.switchSpec(comp).orElseThrow(() -> unknown(fromComponent));
    PortConfig in = sw.port(port).orElseThrow(() -> new IllegalArgumentException(
        "switch " + comp + " has no port '" + port + "' (ports: "
            + String.join(", ", sw.ports().stream().map(PortConfig::name).toList()) + ")"));
    return walk.fromPort(sw, in);
  }

  private IllegalArgumentException unknown(String from) {
    return new IllegalArgumentException(
        "no component '" + from + "' in " + topology.source() + " (components: "
            + String.join(", ", topology.componentIds()) + ")");
  }

  /** One explanation's walk; NTB requester-ID tables are fresh for each, as at start-up. */
  private final class Walk {
    private final String from;
    private final long startAddress;
    private final boolean read;
    private final Map<String, NtbTranslation> ntbs = new HashMap<>();
    private int requester;
    private int hopCount;
    /** The ends this path arrived at: a request arriving at one again is going round a loop. */
    private Set<String> arrivedAt = new HashSet<>();

    Walk(String from, long address, boolean read) {
      this.from = from;
      this.startAddress = address;
      this.read = read;
    }

    RouteExplanation fromEndpoint(EndpointSpec ep) {
      requester = ep.bdf();
      Tlp tlp = tlp(startAddress, requester);
      List<Hop> hops = new ArrayList<>();
      String a = Addresses.hex(startAddress);
      int bar = ep.barIndex(startAddress);
      if (bar >= 0) {
        hops.add(hop(ep.id(), null, null,
            a + " is in " + ep.id() + "'s own " + barName(ep, bar) + " " + ep.bars().get(bar)
                + ": serviced locally, it never reaches the link", List.of(), tlp));
        return result(hops, new Outcome(Kind.DELIVERED, ep.id(), bar, ep.bars().get(bar),
            startAddress, ep.root() ? "local memory" : "local"));
      }
      Optional<LinkSpec> link = topology.linkAt(ep.id());
      if (link.isEmpty()) {
        hops.add(hop(ep.id(), null, null, ep.id() + " has no link", List.of(), tlp));
        return refused(hops, ep.id(), tlp, ep.id() + " has no link to send on", false);
      }
      String next = link.get().other(ep.id());
      hops.add(hop(ep.id(), null, null,
          a + " is not in " + (ep.root() ? ep.id() + "'s memory" : "a BAR of " + ep.id())
              + ": sent on its link to " + next, List.of(), tlp));
      return arrive(next, tlp, hops);
    }

    RouteExplanation fromPort(SwitchSpec sw, PortConfig in) {
      // The requester is whatever sits behind that port; an endpoint's ID when it is one.
      requester = topology.linkAt(LinkSpec.end(sw.id(), in.name()))
          .map(l -> l.other(LinkSpec.end(sw.id(), in.name())))
          .flatMap(topology::endpoint)
          .map(EndpointSpec::bdf)
          .orElse(0);
      return arrive(LinkSpec.end(sw.id(), in.name()), tlp(startAddress, requester), new ArrayList<>());
    }

    /** The request arrives over a link at {@code end} (an endpoint, or a switch port). */
    private RouteExplanation arrive(String end, Tlp tlp, List<Hop> hops) {
      while (true) {
        if (++hopCount > MAX_HOPS) {
          return result(hops, new Outcome(Kind.DROPPED, LinkSpec.componentOf(end), -1, null,
              address(tlp), "gave up after " + MAX_HOPS + " hops: the windows or BARs form a loop"));
        }
        String comp = LinkSpec.componentOf(end);
        String portName = LinkSpec.portOf(end);
        if (!arrivedAt.add(end)) {
          String why = "arrives at " + end + " a second time (at " + Addresses.hex(address(tlp))
              + "): the links and windows form a loop; stopped there";
          hops.add(hop(comp, portName, null, why, List.of(), tlp));
          return result(hops, new Outcome(Kind.DROPPED, comp, -1, null, address(tlp), why));
        }
        if (portName == null) {
          return atEndpoint(topology.endpoint(comp).orElseThrow(), tlp, hops);
        }
        SwitchSpec sw = topology.switchSpec(comp).orElseThrow();
        PortConfig in = sw.port(portName).orElseThrow();
        List<Translation> translations = new ArrayList<>();
        String note = "";
        if (in.role() == PortRole.NTB) {
          Tlp crossed = ntb(sw, in).toLink(tlp);
          if (crossed == null && in.ntb().virtualBar(address(tlp)) != null) {
            String why = Addresses.hex(address(tlp)) + " in NTB " + in.name() + " virtual-side BAR "
                + in.ntb().virtualBar(address(tlp)).window() + ", but its requester-ID table has no"
                + " room for " + Bdf.format(tlp.requester()) + " ("
                + ntb(sw, in).space(NtbDirection.TO_LINK) + ")";
            hops.add(hop(sw.id(), in.name(), null, why, translations, tlp));
            return refused(hops, sw.id(), tlp, why, false);
          }
          if (crossed == null) {
            String why = Addresses.hex(address(tlp)) + " hits no virtual-side BAR of NTB "
                + in.name() + (in.ntb().virtualBars().isEmpty() ? " (it has none)" : " ("
                + String.join(", ", in.ntb().virtualBars().stream().map(b -> b.window().toString()).toList())
                + ")")
                + ": NTB translation is one-way, only a BAR hit is relayed";
            hops.add(hop(sw.id(), in.name(), null, why, translations, tlp));
            return refused(hops, sw.id(), tlp, why, false);
          }
          translations.add(translation(in, false, tlp, crossed));
          note = Addresses.hex(address(tlp)) + " in NTB " + in.name() + " virtual-side BAR "
              + in.ntb().virtualBar(address(tlp)).window() + "; ";
          tlp = crossed;
        }
        RoutingTable table = tables.get(sw.id());
        RouteDecision decision = SwitchRouter.route(table, in.number(), tlp);
        if (decision instanceof RouteDecision.Forward f) {
          Step step = leave(sw, in, table.port(f.port()), note + f.why(), translations, tlp, hops);
          if (step.done != null) {
            return step.done;
          }
          end = step.next;
          tlp = step.tlp;
        } else if (decision instanceof RouteDecision.Multicast m) {
          return multicast(sw, in, m, note, translations, tlp, hops);
        } else if (decision instanceof RouteDecision.Unsupported u) {
          hops.add(hop(sw.id(), in.name(), null, note + u.why(), translations, tlp));
          return refused(hops, sw.id(), tlp, u.why(), false);
        } else if (decision instanceof RouteDecision.SilentDrop d) {
          hops.add(hop(sw.id(), in.name(), null, note + d.why(), translations, tlp));
          return refused(hops, sw.id(), tlp, d.why(), true);
        } else {
          String why = "claimed by the configuration space of port "
              + ((RouteDecision.LocalConfig) decision).port();
          hops.add(hop(sw.id(), in.name(), null, note + why, translations, tlp));
          return refused(hops, sw.id(), tlp, why, false);
        }
      }
    }

    /** The next end and request after leaving a switch port, or the outcome if it stops there. */
    private record Step(String next, Tlp tlp, RouteExplanation done) {}

    private Step leave(SwitchSpec sw, PortConfig in, PortConfig out, String why,
        List<Translation> translations, Tlp tlp, List<Hop> hops) {
      List<Translation> applied = new ArrayList<>(translations);
      if (out.role() == PortRole.NTB) {
        Tlp crossed = ntb(sw, out).toVirtual(tlp);
        if (crossed == null) {
          String reason = "NTB " + out.name() + " cannot relay it: its requester-ID table has no"
              + " room for " + Bdf.format(tlp.requester()) + " ("
              + ntb(sw, out).space(NtbDirection.TO_VIRTUAL) + ")";
          hops.add(hop(sw.id(), in == null ? null : in.name(), out.name(), why + "; " + reason,
              applied, tlp));
          return new Step(null, null, refused(hops, sw.id(), tlp, reason, false));
        }
        applied.add(translation(out, true, tlp, crossed));
        tlp = crossed;
      }
      String outEnd = LinkSpec.end(sw.id(), out.name());
      hops.add(hop(sw.id(), in == null ? null : in.name(), out.name(), why, applied, tlp));
      Optional<LinkSpec> link = topology.linkAt(outEnd);
      if (link.isEmpty()) {
        return new Step(null, null,
            refused(hops, sw.id(), tlp, "port " + out.name() + " has no link (empty slot)", false));
      }
      return new Step(link.get().other(outEnd), tlp, null);
    }

    private RouteExplanation multicast(SwitchSpec sw, PortConfig in, RouteDecision.Multicast m,
        String note, List<Translation> translations, Tlp tlp, List<Hop> hops) {
      RoutingTable table = tables.get(sw.id());
      MulticastGroup group = table.multicast().stream()
          .filter(g -> g.group() == m.group()).findFirst().orElseThrow();
      List<String> names = new ArrayList<>();
      for (int p : m.ports()) {
        names.add(table.port(p).name());
      }
      String why = note + Addresses.hex(address(tlp)) + " in multicast group " + m.group() + " "
          + group.window() + ": a copy to each of " + String.join(", ", names);
      hops.add(hop(sw.id(), in.name(), null, why, translations, tlp));
      List<RouteExplanation> copies = new ArrayList<>();
      // The hop limit guards each path, not the sum of a multicast's copies.
      int hopsSoFar = hopCount;
      Set<String> arrivedSoFar = arrivedAt;
      for (int p : m.ports()) {
        hopCount = hopsSoFar;
        arrivedAt = new HashSet<>(arrivedSoFar);
        List<Hop> copyHops = new ArrayList<>();
        Step step = leave(sw, null, table.port(p), "copy for group " + m.group(), List.of(), tlp,
            copyHops);
        RouteExplanation copy = step.done != null ? step.done : arrive(step.next, step.tlp, copyHops);
        copies.add(copy);
      }
      return new RouteExplanation(from, startAddress, read, requester, hops,
          new Outcome(Kind.MULTICAST, sw.id(), -1, null, address(tlp),
              "replicated to " + String.join(", ", names)),
          copies);
    }

    private RouteExplanation atEndpoint(EndpointSpec ep, Tlp tlp, List<Hop> hops) {
      long address = address(tlp);
      int bar = ep.barIndex(address);
      if (bar < 0 && ep.relay() && topology.relayWindows(ep.id()).stream().anyMatch(w -> w.contains(address))) {
        // A relaying root sends it back down (fabric-actors RootRelay), a read under its own ID.
        String down = topology.linkAt(ep.id()).orElseThrow().other(ep.id());
        Tlp again = read ? tlp(address, ep.bdf()) : tlp;
        hops.add(hop(ep.id(), null, null, Addresses.hex(address) + " is not in " + ep.id()
            + "'s memory but below its link: the root relays it back down to " + down
            + (read ? " as its own read" : ""), List.of(), again));
        return arrive(down, again, hops);
      }
      if (bar < 0) {
        String why = Addresses.hex(address) + " is in no " + (ep.root() ? "memory" : "BAR")
            + " of " + ep.id() + " " + ep.bars();
        hops.add(hop(ep.id(), null, null, why, List.of(), tlp));
        return refused(hops, ep.id(), tlp, why, false);
      }
      hops.add(hop(ep.id(), null, null, Addresses.hex(address) + " in " + barName(ep, bar) + " "
          + ep.bars().get(bar), List.of(), tlp));
      return result(hops, new Outcome(Kind.DELIVERED, ep.id(), bar, ep.bars().get(bar), address,
          ep.root() ? "root memory" : null));
    }

    /**
     * Unsupported Request for a read, a counted drop for a posted write (PCIe answers no posted
     * request); a silent drop is a drop either way.
     */
    private RouteExplanation refused(List<Hop> hops, String where, Tlp tlp, String why, boolean silent) {
      Kind kind = read && !silent ? Kind.UNSUPPORTED_REQUEST : Kind.DROPPED;
      return result(hops, new Outcome(kind, where, -1, null, address(tlp), why));
    }

    private RouteExplanation result(List<Hop> hops, Outcome outcome) {
      return new RouteExplanation(from, startAddress, read, requester, hops, outcome, List.of());
    }

    private NtbTranslation ntb(SwitchSpec sw, PortConfig port) {
      return ntbs.computeIfAbsent(LinkSpec.end(sw.id(), port.name()), k -> {
        // The link-side endpoint lives on the switch's internal bus; a virtual switch without an
        // upstream port has none, and bus 0 keeps the proxy IDs well-formed.
        int bus = Math.max(0, tables.get(sw.id()).internalBus(port.virtualSwitch()));
        return new NtbTranslation(port.ntb(), bus, port.number());
      });
    }

    private Tlp tlp(long address, int requesterId) {
      return read
          ? new MemRead(requesterId, 0, 0, address, LENGTH, 0, 0)
          : new MemWrite(requesterId, 0, 0, address, LENGTH, null, 0, 0);
    }

    private Hop hop(String component, String in, String out, String matched,
        List<Translation> translations, Tlp tlp) {
      return new Hop(component, in, out, matched, translations, address(tlp), tlp.requester());
    }
  }

  private static Translation translation(PortConfig port, boolean toVirtual, Tlp before, Tlp after) {
    return new Translation(port.name(), toVirtual, address(before), address(after),
        before.requester(), after.requester());
  }

  private static String barName(EndpointSpec ep, int bar) {
    return (ep.root() ? "memory BAR" : "BAR") + bar;
  }

  private static long address(Tlp tlp) {
    if (tlp instanceof MemWrite w) {
      return w.address();
    }
    return ((MemRead) tlp).address();
  }
}
