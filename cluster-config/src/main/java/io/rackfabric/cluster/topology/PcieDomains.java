package io.rackfabric.cluster.topology;

import static io.rackfabric.cluster.topology.ProblemText.line;

import io.rackfabric.cluster.topology.RackDraft.EndpointDraft;
import io.rackfabric.cluster.topology.RackDraft.LinkDraft;
import io.rackfabric.cluster.topology.RackDraft.PortDraft;
import io.rackfabric.fabric.routing.PortRole;

/**
 * Second pass: which components share a PCIe domain. Domain nodes are {@code ep:<endpoint>} and
 * {@code vs:<switch>:<virtual switch>}; {@link #join} reports what a domain may not hold, and the
 * global-memory checks ask it afterwards which domain a host or port is in.
 */
final class PcieDomains {

  private final RackDraft draft;
  private final UnionFind domains = new UnionFind();

  private PcieDomains(RackDraft draft) {
    this.draft = draft;
  }

  /** The rack's domains, its valid links joined; loops, NTB loops and BAR overlaps reported. */
  static PcieDomains join(RackDraft draft) {
    PcieDomains d = new PcieDomains(draft);
    d.check();
    return d;
  }

  /** The domain of a domain node: equal strings for nodes of one domain. */
  String find(String node) {
    return domains.find(node);
  }

  /**
   * Each PCIe domain must be a tree, and BARs of endpoints in one domain must not overlap. Domains
   * are what links join without crossing an NTB port, split by virtual switch: two hosts may well
   * both have memory at 0x0.
   */
  private void check() {
    for (LinkDraft link : draft.links) {
      if (!link.aValid || !link.bValid) {
        continue;
      }
      String a = domainKey(link.a);
      String b = domainKey(link.b);
      if (a != null && b != null && !domains.union(a, b)) {
        // A PCIe domain is a tree (Ladon section 3.2: "only one path between any two end-points");
        // a second path would make requests circle between the switches.
        link.at.error("b", "link " + link.a + " -- " + link.b + " closes a loop: its two sides are"
            + " already connected in one PCIe domain, which must be a tree");
      }
    }
    for (LinkDraft link : draft.links) {
      if (link.aValid && link.bValid) {
        checkNtbToNtb(link);
      }
    }
    for (int i = 0; i < draft.endpoints.size(); i++) {
      EndpointDraft later = draft.endpoints.get(i);
      for (int j = 0; j < i; j++) {
        EndpointDraft earlier = draft.endpoints.get(j);
        if (!domains.find("ep:" + later.id).equals(domains.find("ep:" + earlier.id))) {
          continue;
        }
        for (int x = 0; x < later.bars.size(); x++) {
          for (int y = 0; y < earlier.bars.size(); y++) {
            if (later.bars.get(x).overlaps(earlier.bars.get(y))) {
              later.barAt.get(x).error("base", "BAR" + x + " " + later.bars.get(x) + " of "
                  + later.id + " overlaps BAR" + y + " " + earlier.bars.get(y) + " of "
                  + earlier.id + " (line " + line(earlier.barAt.get(y))
                  + "); both are in the same PCIe domain");
            }
          }
        }
      }
    }
  }

  /**
   * Two NTB ports cabled back to back join the domains behind their switches. When those are one
   * domain already, a request that one port relays comes back into that domain through the other,
   * and is relayed again: the route circles until a requester-ID table fills.
   */
  private void checkNtbToNtb(LinkDraft link) {
    PortDraft p = draft.portDraft(link.a);
    PortDraft q = draft.portDraft(link.b);
    if (p == null || q == null || p.role != PortRole.NTB || q.role != PortRole.NTB
        || p.virtualSwitch == null || q.virtualSwitch == null) {
      return;
    }
    String a = "vs:" + LinkSpec.componentOf(link.a) + ":" + p.virtualSwitch;
    String b = "vs:" + LinkSpec.componentOf(link.b) + ":" + q.virtualSwitch;
    if (domains.find(a).equals(domains.find(b))) {
      link.at.error("b", "link " + link.a + " -- " + link.b + " joins two ntb ports of one PCIe"
          + " domain (virtual switch " + p.virtualSwitch + " of " + LinkSpec.componentOf(link.a)
          + " and virtual switch " + q.virtualSwitch + " of " + LinkSpec.componentOf(link.b)
          + "): what one relays would come back through the other, in a loop");
    }
  }

  /** The domain node of a link end; null for an NTB port, whose two sides are in two domains. */
  String domainKey(String end) {
    String comp = LinkSpec.componentOf(end);
    PortDraft p = draft.portDraft(end);
    if (p == null) {
      return "ep:" + comp;
    }
    if (p.role == PortRole.NTB || p.virtualSwitch == null) {
      return null;
    }
    return "vs:" + comp + ":" + p.virtualSwitch;
  }
}
