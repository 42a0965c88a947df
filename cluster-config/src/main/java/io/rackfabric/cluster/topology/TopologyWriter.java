package io.rackfabric.cluster.topology;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.ntb.NtbBar;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.MulticastGroup;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Renders a {@link Topology} as a topology file that {@link TopologyLoader} reads back to an equal
 * topology (apart from {@link Topology#source()}). Everything the loader would default is written
 * out explicitly (endpoint and virtual-side BDFs, the virtual switch of non-default ports), so the
 * file does not depend on the loader's attachment rules staying as they are; addresses are hex
 * strings because HOCON has no hex numbers and a 64-bit address does not survive as a double.
 */
public final class TopologyWriter {

  private TopologyWriter() {}

  /** The topology as HOCON, with no header comment. */
  public static String write(Topology t) {
    return write(t, null);
  }

  /**
   * The topology as HOCON.
   *
   * @param header comment lines for the top of the file (without {@code #}), or null
   */
  public static String write(Topology t, String header) {
    StringBuilder sb = new StringBuilder();
    if (header != null && !header.isEmpty()) {
      for (String line : header.split("\n", -1)) {
        sb.append(line.isEmpty() ? "#" : "# " + line).append('\n');
      }
      sb.append('\n');
    }
    sb.append("rack {\n");
    sb.append("  name = ").append(quote(t.name())).append("\n\n");

    sb.append("  # The first node seeds the cluster.\n");
    sb.append("  nodes = [\n");
    for (NodeSpec n : t.nodes()) {
      sb.append("    { name = ").append(quote(n.name())).append(", host = ").append(quote(n.host()))
          .append(", port = ").append(n.port()).append(" }\n");
    }
    sb.append("  ]\n\n");

    // The most common link parameters become the defaults, so a uniform rack's links stay short.
    LinkParameters defaults = commonest(t.links());
    if (defaults != null) {
      sb.append("  link-defaults { ").append(params(defaults)).append(" }\n\n");
    }

    sb.append("  switches = [\n");
    for (SwitchSpec s : t.switches()) {
      writeSwitch(sb, s);
    }
    sb.append("  ]\n\n");

    sb.append("  endpoints = [\n");
    for (EndpointSpec e : t.endpoints()) {
      sb.append("    { id = ").append(quote(e.id())).append(", node = ").append(quote(e.node()))
          .append(", root = ").append(e.root()).append(", bdf = ").append(quote(Bdf.format(e.bdf())));
      if (e.relay()) {
        sb.append(", relay = true");
      }
      if (e.device() != DeviceKind.MEMORY) {
        sb.append(", device = ").append(quote(e.device().key()));
      }
      if (!e.bars().isEmpty()) {
        sb.append(", bars = [\n");
        for (AddressRange bar : e.bars()) {
          sb.append("        { ").append(extent(bar)).append(" }\n");
        }
        sb.append("      ]");
      }
      sb.append(" }\n");
    }
    sb.append("  ]\n\n");

    sb.append("  links = [\n");
    for (LinkSpec l : t.links()) {
      sb.append("    { a = ").append(quote(l.a())).append(", b = ").append(quote(l.b()));
      if (!l.params().equals(defaults)) {
        sb.append(", ").append(params(l.params()));
      }
      sb.append(" }\n");
    }
    sb.append("  ]\n");
    sb.append("}\n");

    if (t.globalMemorySpec() != null) {
      GlobalMemoryLayout layout = t.globalMemorySpec().layout();
      sb.append("\nglobal-memory {\n");
      sb.append("  local-subspace = ").append(hex(layout.localSubspace())).append('\n');
      sb.append("  pms2-base = ").append(hex(layout.pms2Base())).append('\n');
      sb.append("  address-bits = ").append(layout.addressBits()).append('\n');
      sb.append("  compute-hosts = [")
          .append(String.join(", ", t.globalMemorySpec().computeHosts().stream()
              .map(TopologyWriter::quote).toList()))
          .append("]\n");
      if (t.globalMemorySpec().controlPage() != GlobalMemorySpec.DEFAULT_CONTROL_PAGE) {
        sb.append("  control-page = ").append(hex(t.globalMemorySpec().controlPage())).append('\n');
      }
      if (t.globalMemorySpec().managementHost() != null) {
        sb.append("  management-host = ").append(quote(t.globalMemorySpec().managementHost())).append('\n');
      }
      sb.append("}\n");
    }
    if (t.controlPlane() != null) {
      sb.append("\ncontrol-plane { master = ").append(quote(t.controlPlane().master())).append(", backup = ")
          .append(quote(t.controlPlane().backup())).append(" }\n");
    }
    return sb.toString();
  }

  private static void writeSwitch(StringBuilder sb, SwitchSpec s) {
    sb.append("    {\n");
    sb.append("      id = ").append(quote(s.id())).append(", node = ").append(quote(s.node())).append('\n');
    sb.append("      ports = [\n");
    Map<Integer, String> names = new HashMap<>();
    for (PortConfig p : s.ports()) {
      names.put(p.number(), p.name());
      sb.append("        { name = ").append(quote(p.name())).append(", number = ").append(p.number())
          .append(", role = ").append(p.role().name().toLowerCase(Locale.ROOT));
      if (p.virtualSwitch() != 1) {
        sb.append(", virtual-switch = ").append(p.virtualSwitch());
      }
      if (p.acsRedirect()) {
        sb.append(", acs-redirect = true");
      }
      if (p.role() == PortRole.NTB) {
        sb.append(", virtual-bdf = ").append(quote(Bdf.format(p.ntb().virtualSideBdf())));
        ntbBars(sb, "link-bars", p.ntb().linkBars());
        ntbBars(sb, "virtual-bars", p.ntb().virtualBars());
      } else {
        BridgeRegisters b = p.bridge();
        sb.append(", buses = [").append(b.primaryBus()).append(", ").append(b.secondaryBus())
            .append(", ").append(b.subordinateBus()).append(']');
        if (b.memory() != null) {
          sb.append("\n          memory = ").append(window(b.memory()));
        }
        if (b.prefetchable() != null) {
          sb.append("\n          prefetchable = ").append(window(b.prefetchable()));
        }
      }
      sb.append(" }\n");
    }
    sb.append("      ]\n");
    if (!s.multicast().isEmpty()) {
      sb.append("      multicast = [\n");
      for (MulticastGroup g : s.multicast()) {
        sb.append("        { group = ").append(g.group()).append(", ").append(extent(g.window()))
            .append(", members = [")
            .append(String.join(", ", g.memberPorts().stream().map(n -> quote(names.get(n))).toList()))
            .append("] }\n");
      }
      sb.append("      ]\n");
    }
    sb.append("    }\n");
  }

  private static void ntbBars(StringBuilder sb, String key, List<NtbBar> bars) {
    if (bars.isEmpty()) {
      return;
    }
    sb.append("\n          ").append(key).append(" = [");
    for (int i = 0; i < bars.size(); i++) {
      NtbBar bar = bars.get(i);
      sb.append(i == 0 ? " " : ", ").append("{ ").append(extent(bar.window()))
          .append(", translate-to = ")
          .append(hex(bar.translatedBase())).append(" }");
    }
    sb.append(" ]");
  }

  /**
   * {@code { base, limit }} rather than size: a window may span the whole 64-bit space, whose size
   * does not fit in a long.
   */
  private static String window(AddressRange r) {
    return "{ base = " + hex(r.base()) + ", limit = " + hex(r.limit()) + " }";
  }

  /** {@code base, size}, or {@code base, limit} where the size would not fit in a long. */
  private static String extent(AddressRange r) {
    long span = r.limit() - r.base();
    return span < 0 || span == Long.MAX_VALUE
        ? "base = " + hex(r.base()) + ", limit = " + hex(r.limit())
        : "base = " + hex(r.base()) + ", size = " + hex(span + 1);
  }

  private static String params(LinkParameters p) {
    return "generation = " + p.generation() + ", lanes = " + p.lanes() + ", propagation = "
        + p.propagationNs() + "ns";
  }

  private static LinkParameters commonest(List<LinkSpec> links) {
    Map<LinkParameters, Integer> counts = new HashMap<>();
    LinkParameters best = null;
    int bestCount = 0;
    for (LinkSpec l : links) {
      int c = counts.merge(l.params(), 1, Integer::sum);
      if (c > bestCount) {
        best = l.params();
        bestCount = c;
      }
    }
    return best;
  }

  /** {@code "0x108_0000_0000"}: grouped by 4 digits as the bundled files write them, for reading. */
  private static String hex(long value) {
    String digits = Addresses.hex(value).substring(2);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < digits.length(); i++) {
      if (i > 0 && (digits.length() - i) % 4 == 0) {
        sb.append('_');
      }
      sb.append(digits.charAt(i));
    }
    return quote("0x" + sb);
  }

  static String quote(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\t' -> sb.append("\\t");
        default -> sb.append(c);
      }
    }
    return sb.append('"').toString();
  }
}
