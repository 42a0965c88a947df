package io.rackfabric.cluster.topology;

import static io.rackfabric.cluster.topology.ProblemText.hint;
import static io.rackfabric.cluster.topology.ProblemText.line;
import static io.rackfabric.cluster.topology.RackDraft.otherEnd;

import io.rackfabric.cluster.topology.RackDraft.EndpointDraft;
import io.rackfabric.cluster.topology.RackDraft.LinkDraft;
import io.rackfabric.cluster.topology.RackDraft.PortDraft;
import io.rackfabric.cluster.topology.RackDraft.SwitchDraft;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.tlp.Bdf;
import java.util.HashMap;
import java.util.Map;

/**
 * Second pass, first step: resolves each link's two ends to a switch port or an endpoint, rejects
 * links no PCIe hierarchy can have, and fills in what depends on attachment (bdfs). The address
 * checks that follow ({@link SwitchWindows}, {@link PcieDomains}) need the links resolved first.
 */
final class LinkWiring {

  /** Below a root complex's root port: what an endpoint or NTB attached directly to a root gets. */
  private static final int BELOW_ROOT_PORT = Bdf.of(1, 0, 0);

  private final RackDraft draft;

  LinkWiring(RackDraft draft) {
    this.draft = draft;
  }

  /** Resolves the links and applies their defaults; returns, for each valid end, its link. */
  Map<String, LinkDraft> wire() {
    Map<String, LinkDraft> byEnd = checkLinks();
    checkUnlinkedEndpoints(byEnd);
    checkRelays(byEnd);
    applyAttachmentDefaults(byEnd);
    return byEnd;
  }

  /** Resolves every link end and returns, for each valid end, the link that uses it. */
  private Map<String, LinkDraft> checkLinks() {
    Map<String, LinkDraft> byEnd = new HashMap<>();
    for (LinkDraft link : draft.links) {
      link.aValid = link.a != null && checkEnd(link, "a", link.a, byEnd);
      link.bValid = link.b != null && checkEnd(link, "b", link.b, byEnd);
      if (link.aValid && link.bValid && link.a.equals(link.b)) {
        link.at.error("b", "a link cannot join " + link.a + " to itself");
        link.bValid = false;
      }
      if (link.aValid) {
        byEnd.put(link.a, link);
      }
      if (link.bValid) {
        byEnd.put(link.b, link);
      }
      if (link.aValid && link.bValid) {
        checkLinkRoles(link);
      }
    }
    return byEnd;
  }

  private boolean checkEnd(LinkDraft link, String key, String end, Map<String, LinkDraft> byEnd) {
    String comp = LinkSpec.componentOf(end);
    String port = LinkSpec.portOf(end);
    SwitchDraft sw = draft.switchDraft(comp);
    EndpointDraft ep = draft.endpointDraft(comp);
    if (sw == null && ep == null) {
      link.at.error(key, draft.declared.containsKey(comp)
          ? "'" + comp + "' is declared but has errors of its own (see above)"
          : "'" + end + "' names no switch or endpoint (components: " + hint(draft.declared.keySet()) + ")");
      return false;
    }
    if (sw != null && port == null) {
      link.at.error(key, "'" + end + "' is a switch: name one of its ports, e.g. "
          + LinkSpec.end(comp, sw.ports.isEmpty() ? "up" : sw.ports.keySet().iterator().next()));
      return false;
    }
    if (sw != null && !sw.ports.containsKey(port)) {
      link.at.error(key, "switch " + comp + " has no port '" + port + "' (ports: "
          + hint(sw.ports.keySet()) + ")");
      return false;
    }
    if (ep != null && port != null) {
      link.at.error(key, "'" + comp + "' is an endpoint and has no ports: write just " + comp);
      return false;
    }
    LinkDraft earlier = byEnd.get(end);
    if (earlier != null) {
      link.at.error(key, end + " is already used by the link at line " + line(earlier.at)
          + " (" + earlier.at.path() + "); an end takes one link");
      return false;
    }
    return true;
  }

  /**
   * Rejects links that no PCIe hierarchy can have: two roots or two endpoints back to back, a
   * root below a downstream port, a device above a switch's upstream port, and so on.
   */
  private void checkLinkRoles(LinkDraft link) {
    String problem = roleProblem(link.a, link.b);
    if (problem == null) {
      problem = roleProblem(link.b, link.a);
    }
    if (problem != null) {
      link.at.error("b", "link " + link.a + " -- " + link.b + ": " + problem);
    }
  }

  private String roleProblem(String end, String other) {
    PortDraft p = draft.portDraft(end);
    PortDraft q = draft.portDraft(other);
    EndpointDraft e = draft.endpointDraft(LinkSpec.componentOf(end));
    EndpointDraft f = draft.endpointDraft(LinkSpec.componentOf(other));
    if (p != null && q != null) {
      if (LinkSpec.componentOf(end).equals(LinkSpec.componentOf(other))) {
        return "both ends are ports of the same switch";
      }
      if (p.role == PortRole.UPSTREAM && q.role == PortRole.UPSTREAM) {
        return "joins two upstream ports; one side must be a downstream or ntb port";
      }
      if (p.role == PortRole.DOWNSTREAM && q.role == PortRole.DOWNSTREAM) {
        return "joins two downstream ports; one side must be an upstream port";
      }
      if (p.role == PortRole.NTB && q.role == PortRole.UPSTREAM) {
        return "an ntb port's virtual side is an endpoint and cannot sit above upstream port "
            + other + "; link it to a downstream port or a root endpoint";
      }
      return null;
    }
    if (e != null && f != null && e.root != null && f.root != null) {
      if (e.root && f.root) {
        return "joins two root complexes; put an ntb port between their domains";
      }
      if (!e.root && !f.root) {
        return "joins two endpoints and neither is a root (root = true)";
      }
      return null;
    }
    if (e != null && q != null && e.root != null && q.role != null) {
      if (e.root && q.role == PortRole.DOWNSTREAM) {
        return "root " + e.id + " cannot sit below downstream port " + other
            + "; attach it to an upstream port or an ntb port";
      }
      if (!e.root && q.role == PortRole.UPSTREAM) {
        return e.id + " is not a root (root = true) but is attached to upstream port " + other;
      }
      if (!e.root && q.role == PortRole.NTB) {
        return e.id + " on an ntb port's virtual side would be a domain without a root complex;"
            + " set root = true";
      }
    }
    return null;
  }

  /** A relaying root sends requests back down into the windows of the upstream port it sits on. */
  private void checkRelays(Map<String, LinkDraft> byEnd) {
    for (EndpointDraft e : draft.endpoints) {
      LinkDraft link = byEnd.get(e.id);
      if (e.relay && link != null && link.aValid && link.bValid) {
        String other = e.id.equals(link.a) ? link.b : link.a;
        PortDraft port = draft.portDraft(other);
        if (port == null || port.role != PortRole.UPSTREAM) {
          e.at.error("relay", "relaying root " + e.id + " is linked to " + other
              + ", not to a switch's upstream port, whose windows it would relay into");
        }
      }
    }
  }

  private void checkUnlinkedEndpoints(Map<String, LinkDraft> byEnd) {
    for (EndpointDraft e : draft.endpoints) {
      if (!byEnd.containsKey(e.id) && !linkNamesEnd(e.id)) {
        e.at.error("id", "endpoint " + e.id + " is attached to no link; add one to rack.links");
      }
    }
  }

  /** Whether some link names the end, even an invalid link: then its own error says enough. */
  private boolean linkNamesEnd(String end) {
    return draft.links.stream().anyMatch(l -> end.equals(l.a) || end.equals(l.b));
  }

  /**
   * Fills in what depends on where things are attached: an endpoint's bdf (the bus below its
   * downstream port, the primary bus of the upstream port a root sits on, 00:00.0 for the root of a
   * slave domain, 01:00.0 for a device directly below a root) and an NTB's virtual-side bdf.
   */
  private void applyAttachmentDefaults(Map<String, LinkDraft> byEnd) {
    for (EndpointDraft e : draft.endpoints) {
      if (e.bdfGiven || e.root == null) {
        continue;
      }
      e.bdf = e.root ? Bdf.of(0, 0, 0) : BELOW_ROOT_PORT;
      LinkDraft link = byEnd.get(e.id);
      if (link == null) {
        continue;
      }
      PortDraft p = draft.portDraft(otherEnd(link, e.id));
      if (p != null && p.role == PortRole.DOWNSTREAM && p.buses != null) {
        e.bdf = Bdf.of(p.buses[1], 0, 0);
      } else if (p != null && p.role == PortRole.UPSTREAM && p.buses != null) {
        e.bdf = Bdf.of(p.buses[0], 0, 0);
      }
    }
    for (SwitchDraft s : draft.switches) {
      for (PortDraft p : s.ports.values()) {
        if (p.role != PortRole.NTB || p.virtualBdf != null) {
          continue;
        }
        p.virtualBdf = BELOW_ROOT_PORT;
        LinkDraft link = byEnd.get(LinkSpec.end(s.id, p.name));
        PortDraft q = link == null ? null : draft.portDraft(otherEnd(link, LinkSpec.end(s.id, p.name)));
        if (q != null && q.role == PortRole.DOWNSTREAM && q.buses != null) {
          p.virtualBdf = Bdf.of(q.buses[1], 0, 0);
        }
      }
    }
  }
}
