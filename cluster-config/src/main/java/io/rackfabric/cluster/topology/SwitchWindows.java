package io.rackfabric.cluster.topology;

import static io.rackfabric.cluster.topology.ProblemText.line;

import io.rackfabric.cluster.topology.RackDraft.Claim;
import io.rackfabric.cluster.topology.RackDraft.PortDraft;
import io.rackfabric.cluster.topology.RackDraft.SwitchDraft;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.routing.MulticastGroup;
import java.util.ArrayList;
import java.util.List;

/** Second pass: the address windows the ports of one virtual switch claim must not overlap. */
final class SwitchWindows {

  private SwitchWindows() {}

  /** Overlapping windows of two ports of one virtual switch make routing depend on port order. */
  static void check(RackDraft draft) {
    for (SwitchDraft s : draft.switches) {
      List<PortDraft> ports = new ArrayList<>(s.ports.values());
      for (int i = 0; i < ports.size(); i++) {
        for (int j = 0; j < i; j++) {
          PortDraft later = ports.get(i);
          PortDraft earlier = ports.get(j);
          if (later.virtualSwitch == null || !later.virtualSwitch.equals(earlier.virtualSwitch)) {
            continue;
          }
          for (Claim c : later.claims) {
            for (Claim d : earlier.claims) {
              if (c.range().overlaps(d.range()) && !multicastOverlay(s, later, earlier, c.range(), d.range())) {
                c.at().error(c.key(), c.what() + " " + c.range() + " of port " + c.port()
                    + " overlaps " + d.what() + " " + d.range() + " of port " + d.port()
                    + " (line " + line(d.at()) + "), both in virtual switch " + later.virtualSwitch
                    + " of " + s.id);
              }
            }
          }
        }
      }
    }
  }

  /**
   * Two NTB ports may claim the same range when it is a multicast window of their switch and both
   * are members: the switch copies a write there to each of them, and each translates its copy
   * (an overlay BAR, as multicast into NTB ports is done; Ladon section 5.3's multicast notification).
   */
  private static boolean multicastOverlay(SwitchDraft s, PortDraft a, PortDraft b, AddressRange ra, AddressRange rb) {
    for (MulticastGroup g : s.multicast) {
      if (g.window().covers(ra) && g.window().covers(rb) && a.number != null && b.number != null
          && g.memberPorts().contains(a.number) && g.memberPorts().contains(b.number)) {
        return true;
      }
    }
    return false;
  }
}
