package io.rackfabric.cluster.topology;

import static io.rackfabric.cluster.topology.ProblemText.line;
import static io.rackfabric.cluster.topology.ProblemText.range;
import static io.rackfabric.cluster.topology.RackDraft.otherEnd;

import io.rackfabric.cluster.topology.RackDraft.EndpointDraft;
import io.rackfabric.cluster.topology.RackDraft.LinkDraft;
import io.rackfabric.cluster.topology.RackDraft.PortDraft;
import io.rackfabric.cluster.topology.RackDraft.SwitchDraft;
import io.rackfabric.fabric.ntb.NtbBar;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.MemorySizes;
import io.rackfabric.host.memory.NtbProgramming;
import io.rackfabric.host.memory.Plane;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds each compute host's primary and secondary NTB port among the rack's ports, by the BARs
 * {@link GlobalMemoryLayout} says they carry; the fail-over check later follows routes through them.
 */
final class ComputeHostNtbPorts {

  private ComputeHostNtbPorts() {}

  /**
   * Every NTB port linked into a compute host's domain must be that CH's primary or secondary
   * port as the layout programs it: a link-side BAR equal to the CH's PMS1 (PMS2) range
   * translated to 0, and a virtual-side BAR that maps the MH's half as CH address = MH address +
   * L. The virtual BAR may cover only the active part of the half ("maps the active portion of
   * the MH's physical memory space", 4.1), but must stay inside the CH's view of it. Each CH needs
   * both ports.
   */
  static String[][] match(GlobalMemoryLayout layout, List<EndpointDraft> chs, Fields f, RackDraft draft,
      PcieDomains domains, Map<String, LinkDraft> byEnd) {
    Map<String, Integer> chByDomain = new HashMap<>();
    for (int i = 0; i < chs.size(); i++) {
      Integer other = chByDomain.put(domains.find("ep:" + chs.get(i).id), i + 1);
      if (other != null) {
        // Two CHs in one domain would share one address space: the layout gives each its own.
        f.error("compute-hosts", "compute hosts " + chs.get(other - 1).id + " and "
            + chs.get(i).id + " are in one PCIe domain; each needs its own, behind its NTB ports");
        return null;
      }
    }
    String[][] found = new String[chs.size() + 1][Plane.values().length];
    boolean[] complained = new boolean[chs.size() + 1];
    for (SwitchDraft s : draft.switches) {
      for (PortDraft p : s.ports.values()) {
        String end = LinkSpec.end(s.id, p.name);
        LinkDraft link = p.role == PortRole.NTB ? byEnd.get(end) : null;
        String domain = link == null ? null : domains.domainKey(otherEnd(link, end));
        Integer ch = domain == null ? null : chByDomain.get(domains.find(domain));
        if (ch == null) {
          continue;
        }
        String who = "ntb port " + end + " is linked to compute host " + chs.get(ch - 1).id
            + " (CH" + ch + " of " + GlobalMemorySection.KEY + ", line " + line(f) + ")";
        Plane plane = null;
        for (Plane candidate : Plane.values()) {
          if (p.linkBars.containsAll(layout.ntbProgramming(ch, candidate).linkBars())) {
            plane = candidate;
          }
        }
        if (plane == null) {
          p.at.error("link-bars", who + " but no link-bar maps CH" + ch + "'s PMS1 range "
              + bar(layout.ntbProgramming(ch, Plane.PRIMARY).linkBars().get(0))
              + " (primary) or its PMS2 range "
              + bar(layout.ntbProgramming(ch, Plane.SECONDARY).linkBars().get(0))
              + " (secondary)");
          complained[ch] = true;
          continue;
        }
        String earlier = found[ch][plane.ordinal()];
        if (earlier != null) {
          p.at.error("link-bars", who + " as its " + plane.ntb() + " NTB, but " + earlier
              + " already is: two ports with the same link-bar");
          complained[ch] = true;
          continue;
        }
        found[ch][plane.ordinal()] = end;
        if (!mapsView(layout, plane, p.virtualBars)) {
          NtbProgramming expected = layout.ntbProgramming(ch, plane);
          p.at.error("virtual-bars", who + " as its " + plane.ntb() + " NTB, but no virtual-bar"
              + " maps the MH's " + plane.pms() + " at CH address = MH address + "
              + MemorySizes.size(layout.localSubspace()) + ": expected one inside "
              + range(layout.chView(plane)) + " covering " + range(layout.chActiveView(plane))
              + ", e.g. " + bar(expected.virtualBars().get(0)));
        }
      }
    }
    String[][] ntbPorts = new String[chs.size()][];
    for (int ch = 1; ch <= chs.size(); ch++) {
      ntbPorts[ch - 1] = found[ch];
      for (Plane plane : Plane.values()) {
        if (found[ch][plane.ordinal()] == null && !complained[ch]) {
          f.error("compute-hosts", "compute host " + chs.get(ch - 1).id + " (CH" + ch + ") has no "
              + plane.ntb() + " NTB port: no ntb port linked to its domain has the link-bar "
              + bar(layout.ntbProgramming(ch, plane).linkBars().get(0)));
        }
      }
    }
    return ntbPorts;
  }

  /** Whether one of {@code bars} maps the MH's half of {@code plane} as the layout does. */
  private static boolean mapsView(GlobalMemoryLayout layout, Plane plane, List<NtbBar> bars) {
    for (NtbBar b : bars) {
      boolean shifted = b.window().base() - b.translatedBase() == layout.localSubspace();
      if (shifted && layout.chView(plane).covers(b.window())
          && b.window().covers(layout.chActiveView(plane))) {
        return true;
      }
    }
    return false;
  }

  /** {@code [32GiB, 64GiB) -> 0x0}. */
  private static String bar(NtbBar b) {
    return range(b.window()) + " -> " + MemorySizes.hex(b.translatedBase());
  }
}
