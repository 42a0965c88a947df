package io.rackfabric.cluster.management;

import io.rackfabric.cluster.topology.GlobalMemorySpec;
import io.rackfabric.cluster.topology.LadonNtbWindows;
import io.rackfabric.cluster.topology.SwitchSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.fabric.management.NtbWindows;
import io.rackfabric.fabric.ntb.NtbBar;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.host.failover.LadonAddresses;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.NtbProgramming;
import io.rackfabric.host.memory.Plane;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The NTB windows a fabric manager writes in a Ladon rack ({@code write-ntb-windows}): the layout
 * reaches the fabric manager as this plan. Each compute host's NTB port of each plane (the port the
 * topology check matched to it by its CH range) gets the windows {@link LadonNtbWindows} gives,
 * addressed by its chip's serial number; where the file programmed the port otherwise, the plan
 * says so, and the fabric manager's writes win.
 */
public final class NtbWindowPlans {

  private NtbWindowPlans() {}

  /** The plan for {@code topology}; empty without a {@code global-memory} section. */
  public static NtbWindows.Plan of(Topology topology, TopologyFabric fabric) {
    GlobalMemorySpec spec = topology.globalMemorySpec();
    if (spec == null) {
      return NtbWindows.Plan.NONE;
    }
    GlobalMemoryLayout layout = spec.layout();
    LadonAddresses ladon = LadonNtbWindows.ladonOf(spec);
    List<NtbWindows> ports = new ArrayList<>();
    List<String> differences = new ArrayList<>();
    for (SwitchSpec s : topology.switches()) {
      for (PortConfig p : s.ports()) {
        NtbProgramming planned = p.role() == PortRole.NTB ? planned(layout, ladon, p) : null;
        if (planned == null) {
          continue;
        }
        String name = s.id() + "." + p.name();
        ports.add(new NtbWindows(fabric.serialOf(s.id()), p.number(), name, planned.linkBars(),
            planned.virtualBars()));
        compare(name, "link-bars", p.ntb().linkBars(), planned.linkBars(), differences);
        compare(name, "virtual-bars", p.ntb().virtualBars(), planned.virtualBars(), differences);
      }
    }
    return new NtbWindows.Plan(ports, differences);
  }

  /** The windows of the CH and plane whose range port {@code p} carries; null: no CH's port. */
  private static NtbProgramming planned(GlobalMemoryLayout layout, LadonAddresses ladon, PortConfig p) {
    for (int ch = 1; ch <= layout.computeHosts(); ch++) {
      for (Plane plane : Plane.values()) {
        if (p.ntb().linkBars().containsAll(layout.ntbProgramming(ch, plane).linkBars())) {
          return LadonNtbWindows.of(layout, ladon, ch, plane);
        }
      }
    }
    return null;
  }

  private static void compare(String port, String side, List<NtbBar> file, List<NtbBar> planned, List<String> out) {
    if (!file.equals(planned)) {
      out.add(port + " " + side + ": the file has " + text(file) + ", the layout " + text(planned));
    }
  }

  static String text(List<NtbBar> bars) {
    return bars.stream().map(b -> "[" + Addresses.hex(b.window().base()) + ", " + Addresses.hex(b.window().limit())
        + "] -> " + Addresses.hex(b.translatedBase())).collect(Collectors.joining(", ", "[", "]"));
  }
}
