package io.rackfabric.cluster.topology;

import io.rackfabric.fabric.text.TextTable;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.fabric.ntb.NtbBar;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.MulticastGroup;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.host.memory.MemorySizes;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code rack topology check FILE|NAME}: loads a topology file (or a bundled one by name) and
 * prints what it describes, or every problem in it. Exit 0 when it loads, 2 otherwise. (The
 * command line's flags are picocli's, in {@code cli.TopologyRackCommand}.)
 */
public final class TopologyCheck {

  private TopologyCheck() {}

  /**
   * @param name a topology file or a bundled name
   * @return 0 when the topology is valid, 2 for a bad topology
   */
  public static int check(String name, PrintStream out, PrintStream err) {
    Topology topology;
    try {
      // The check is where a node's host name is looked up: rack node would fail on it later.
      topology = TopologyLoader.loadFileOrBundled(name, HostCheck.ALL);
    } catch (TopologyException e) {
      e.problems().forEach(err::println);
      int n = e.problems().size();
      err.println(n == 1 ? "1 problem" : n + " problems");
      return 2;
    }
    out.print(summary(topology));
    return 0;
  }

  /** A readable account of a topology: nodes, switches with ports, endpoints, links. */
  public static String summary(Topology t) {
    StringBuilder sb = new StringBuilder();
    sb.append(t.name()).append(" (").append(t.source()).append("): ")
        .append(count(t.nodes().size(), "node")).append(", ")
        .append(count(t.switches().size(), "switch")).append(", ")
        .append(count(t.endpoints().size(), "endpoint")).append(", ")
        .append(count(t.links().size(), "link")).append('\n');

    sb.append("\nnodes\n");
    List<String[]> rows = new ArrayList<>();
    for (int i = 0; i < t.nodes().size(); i++) {
      NodeSpec n = t.nodes().get(i);
      rows.add(new String[] {n.name(), n.address(), i == 0 ? "seed" : "",
          "runs " + String.join(", ", t.placedOn(n.name()).stream().map(Component::id).toList())});
    }
    TextTable.append(sb, "  ", rows);

    if (!t.switches().isEmpty()) {
      sb.append("\nswitches\n");
      for (SwitchSpec s : t.switches()) {
        sb.append("  ").append(s.id()).append(" on ").append(s.node()).append('\n');
        rows = new ArrayList<>();
        for (PortConfig p : s.ports()) {
          String end = LinkSpec.end(s.id(), p.name());
          rows.add(new String[] {String.valueOf(p.number()), p.name(),
              p.role().name().toLowerCase(Locale.ROOT), "vs" + p.virtualSwitch(), describe(p),
              t.linkAt(end).map(l -> "link " + l.other(end)).orElse("no link")});
        }
        TextTable.append(sb, "    ", rows);
        for (MulticastGroup g : s.multicast()) {
          List<String> members = new ArrayList<>();
          for (int m : g.memberPorts()) {
            members.add(s.port(m).map(PortConfig::name).orElse(String.valueOf(m)));
          }
          sb.append("    multicast group ").append(g.group()).append(' ').append(window(g.window()))
              .append(" -> ").append(String.join(", ", members)).append('\n');
        }
      }
    }

    if (!t.endpoints().isEmpty()) {
      sb.append("\nendpoints\n");
      rows = new ArrayList<>();
      for (EndpointSpec e : t.endpoints()) {
        List<String> bars = new ArrayList<>();
        for (int i = 0; i < e.bars().size(); i++) {
          bars.add("BAR" + i + " " + window(e.bars().get(i)));
        }
        rows.add(new String[] {e.id(), "on " + e.node(), Bdf.format(e.bdf()), e.root() ? "root" : "",
            bars.isEmpty() ? "no BARs" : String.join(", ", bars),
            t.linkAt(e.id()).map(l -> "link " + l.other(e.id())).orElse("no link")});
      }
      TextTable.append(sb, "  ", rows);
    }

    if (!t.links().isEmpty()) {
      sb.append("\nlinks\n");
      rows = new ArrayList<>();
      for (LinkSpec l : t.links()) {
        rows.add(new String[] {l.a(), "--", l.b(), "gen" + l.params().generation() + " x"
            + l.params().lanes() + " " + l.params().propagationNs() + "ns"});
      }
      TextTable.append(sb, "  ", rows);
    }

    t.globalMemory().ifPresent(m -> {
      sb.append("\nglobal memory\n  L = ").append(size(m.localSubspace())).append(", P = ")
          .append(size(m.pms2Base())).append(", ").append(m.addressBits())
          .append("-bit; compute hosts ");
      List<String> hosts = new ArrayList<>();
      for (int i = 0; i < t.computeHostIds().size(); i++) {
        hosts.add("CH" + (i + 1) + " " + t.computeHostIds().get(i));
      }
      sb.append(String.join(", ", hosts)).append(" (rack memmap --topology ")
          .append(t.source()).append(" prints the map)\n");
      GlobalMemorySpec spec = t.globalMemorySpec();
      String page = "control page " + MemorySizes.hex(spec.controlPage()) + " (4KiB) ";
      sb.append(spec.managementHost() == null
          ? "  management host none: no host software runs; " + page + "unused\n"
          : "  management host " + spec.managementHost() + ": runs the data-plane fail-over; " + page
              + "in every host's memory, the MH's copy in PMS2 at "
              + MemorySizes.hex(spec.ladonAddresses().mhPms2Page().base()) + "\n");
    });
    ControlPlaneSpec pair = t.controlPlane();
    if (pair != null) {
      sb.append("\ncontrol plane\n  master ").append(pair.master()).append(" (VS1 on ").append(pair.fencingSwitch())
          .append('.').append(pair.masterPort()).append("), backup ").append(pair.backup())
          .append("; a take-over moves ").append(pair.fencingSwitch()).append("'s ports ")
          .append(pair.fencedPorts()).append(" to VS2\n");
    }
    return sb.toString();
  }

  private static String describe(PortConfig p) {
    List<String> parts = new ArrayList<>();
    if (p.role() == PortRole.NTB) {
      parts.add("virtual " + Bdf.format(p.ntb().virtualSideBdf()));
      for (NtbBar b : p.ntb().linkBars()) {
        parts.add("link-bar " + window(b.window()) + " -> " + Addresses.hex(b.translatedBase()));
      }
      for (NtbBar b : p.ntb().virtualBars()) {
        parts.add("virtual-bar " + window(b.window()) + " -> " + Addresses.hex(b.translatedBase()));
      }
    } else {
      BridgeRegisters b = p.bridge();
      parts.add("buses " + b.primaryBus() + "/" + b.secondaryBus() + "/" + b.subordinateBus());
      if (b.memory() != null) {
        parts.add("memory " + window(b.memory()));
      }
      if (b.prefetchable() != null) {
        parts.add("prefetchable " + window(b.prefetchable()));
      }
    }
    return String.join(", ", parts);
  }

  /** {@code [0x90000..0x9FFFF] 64KiB}: the range and its size in the largest exact unit. */
  static String window(AddressRange r) {
    return r + " " + size(r.size());
  }

  static String size(long bytes) {
    return io.rackfabric.fabric.address.Addresses.size(bytes);
  }

  private static String count(int n, String noun) {
    return n + " " + noun + (n == 1 ? "" : noun.endsWith("h") ? "es" : "s");
  }

}
