package io.rackfabric.cluster.topology;

import io.rackfabric.fabric.ntb.NtbBar;
import io.rackfabric.host.failover.LadonAddresses;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.NtbProgramming;
import io.rackfabric.host.memory.Plane;
import java.util.ArrayList;
import java.util.List;

/**
 * The windows a compute host's NTB port of one plane holds in a Ladon rack: the layout's (the CH's
 * range of the plane's PMS on the link side, the plane's view of the MH's space on the virtual
 * side) and, when the rack runs the data-plane fail-over, a second link-side window from the plane's
 * multicast page to the CH's control page. The rack generator programs them and the fabric manager
 * writes them ({@code write-ntb-windows}): one home for both.
 */
public final class LadonNtbWindows {

  private LadonNtbWindows() {}

  /**
   * CH {@code ch}'s (1-based) NTB port of {@code plane}; {@code ladon} null when the rack runs no
   * fail-over (no multicast page).
   */
  public static NtbProgramming of(GlobalMemoryLayout layout, LadonAddresses ladon, int ch, Plane plane) {
    NtbProgramming p = layout.ntbProgramming(ch, plane);
    if (ladon == null) {
      return p;
    }
    List<NtbBar> link = new ArrayList<>(p.linkBars());
    link.add(new NtbBar(ladon.multicastPage(plane), ladon.controlPage()));
    return new NtbProgramming(ch, plane, link, p.virtualBars());
  }

  /**
   * The fail-over's addresses a rack with this {@code global-memory} section has: with a management
   * host, when the layout leaves the fail-over its slots; else null.
   */
  public static LadonAddresses ladonOf(GlobalMemorySpec spec) {
    return spec.managementHost() != null && LadonRackGenerator.failoverFits(spec.layout()) ? spec.ladonAddresses()
        : null;
  }
}
