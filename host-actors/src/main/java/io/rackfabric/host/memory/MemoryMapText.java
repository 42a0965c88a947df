package io.rackfabric.host.memory;

import io.rackfabric.fabric.text.TextTable;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.ntb.NtbBar;
import java.util.ArrayList;
import java.util.List;

/**
 * Prints a {@link GlobalMemoryLayout} the way Ladon Figure 3 draws it: (a) the MH's physical
 * memory space, PMS1 and PMS2 with the MH's local subspace and every CH's range; (b) a CH's
 * physical memory space, its local subspace below the MH's two halves and, inside them, where
 * every host sits; then the NTB BARs that make it so. Ranges are half-open in the paper's units
 * ({@code [1TiB + 96GiB, 1TiB + 128GiB)}) next to the inclusive hex a BAR register would hold.
 */
public final class MemoryMapText {

  /** Up to this many compute hosts every CH's view is printed; above it, only one. */
  public static final int ALL_VIEWS_UP_TO = 4;

  private final GlobalMemoryLayout layout;
  private final List<String> names;

  /**
   * @param names the compute hosts' ids, CH1 first, to print next to "CH i"; empty for none
   */
  private MemoryMapText(GlobalMemoryLayout layout, List<String> names) {
    if (!names.isEmpty() && names.size() != layout.computeHosts()) {
      throw new IllegalArgumentException(names.size() + " host names " + names + " for "
          + layout.computeHosts() + " compute hosts");
    }
    this.layout = layout;
    this.names = List.copyOf(names);
  }

  /** The whole map without host names; every CH's view when there are few. */
  public static String render(GlobalMemoryLayout layout) {
    return render(layout, List.of(), 0);
  }

  /**
   * @param names the compute hosts' ids, CH1 first, or empty
   * @param host the CH whose view (b) to print, or 0 for every CH's when there are at most {@link
   *     #ALL_VIEWS_UP_TO}, else CH1's
   */
  public static String render(GlobalMemoryLayout layout, List<String> names, int host) {
    if (host < 0 || host > layout.computeHosts()) {
      throw new IllegalArgumentException(
          "host=" + host + " not in [1," + layout.computeHosts() + "]");
    }
    return new MemoryMapText(layout, names).text(host);
  }

  private String text(int host) {
    long l = layout.localSubspace();
    StringBuilder sb = new StringBuilder();
    sb.append("Global memory space (Ladon sections 4.1-4.2, Figure 3): ")
        .append(count(layout.computeHosts(), "compute host")).append(", local subspace L = ")
        .append(MemorySizes.size(l)).append(", PMS2 base P = ")
        .append(MemorySizes.size(layout.pms2Base())).append(", ").append(layout.addressBits())
        .append("-bit physical addresses (").append(MemorySizes.space(layout.addressBits()))
        .append(")\n");

    sb.append("\n(a) MH physical memory space\n");
    for (Plane plane : Plane.values()) {
      AddressRange pms = layout.pms(plane);
      sb.append("  ").append(plane.pms()).append("  ").append(halfOpen(pms)).append("  ")
          .append(hex(pms)).append('\n');
      List<String[]> rows = new ArrayList<>();
      if (plane == Plane.PRIMARY) {
        rows.add(row(layout.mhLocal(), "MH local subspace (its memory and MMIO)"));
      } else {
        rows.add(row(layout.pms2LocalSlot(),
            "PMS2 local-subspace slot: not backed, the MH's memory is in PMS1"));
      }
      for (int i = 1; i <= layout.computeHosts(); i++) {
        rows.add(row(layout.mhRangeOf(i, plane),
            ch(i) + " local subspace, through its " + plane.ntb() + " NTB"));
      }
      free(rows, layout.mhHostsRange(plane).limit(), pms.limit(),
          "free: room for " + (layout.maxComputeHosts() - layout.computeHosts()) + " more hosts");
      TextTable.append(sb, "    ", rows);
    }

    List<Integer> viewers = new ArrayList<>();
    if (host > 0) {
      viewers.add(host);
    } else {
      int shown = layout.computeHosts() <= ALL_VIEWS_UP_TO ? layout.computeHosts() : 1;
      for (int i = 1; i <= shown; i++) {
        viewers.add(i);
      }
    }
    for (int viewer : viewers) {
      view(sb, viewer);
    }
    if (host == 0 && viewers.size() < layout.computeHosts()) {
      sb.append("\n(every CH's view is the same map; only which range is the CH itself differs;"
          + " --host I prints CH I's)\n");
    }

    sb.append("\nA CH can reach ").append(MemorySizes.size(layout.totalVisible())).append(": ")
        .append(MemorySizes.size(l)).append(" local (no NTB), ").append(MemorySizes.size(l))
        .append(" in the MH (1 NTB hop), ").append(MemorySizes.size(layout.visibleOtherHosts()))
        .append(" in ").append(count(layout.computeHosts() - 1, "other compute host"))
        .append(" (2 NTB hops)\n");

    sb.append("\nNTB BARs (link side in the MH's domain, virtual side in the CH's)\n");
    List<String[]> rows = new ArrayList<>();
    for (int viewer : viewers) {
      for (Plane plane : Plane.values()) {
        NtbProgramming p = layout.ntbProgramming(viewer, plane);
        for (NtbBar bar : p.linkBars()) {
          rows.add(new String[] {ch(viewer) + " " + plane.ntb(), "link-bar", hex(bar.window()),
              MemorySizes.size(bar.window().size()), "-> " + MemorySizes.hex(bar.translatedBase())});
        }
        for (NtbBar bar : p.virtualBars()) {
          rows.add(new String[] {"", "virtual-bar", hex(bar.window()),
              MemorySizes.size(bar.window().size()), "-> " + MemorySizes.hex(bar.translatedBase())});
        }
      }
    }
    TextTable.append(sb, "  ", rows);
    return sb.toString();
  }

  /** (b): CH {@code viewer}'s physical memory space. */
  private void view(StringBuilder sb, int viewer) {
    long l = layout.localSubspace();
    sb.append("\n(b) ").append(ch(viewer)).append(" physical memory space (CH address = MH address + ")
        .append(MemorySizes.size(l)).append(")\n");
    List<String[]> top = new ArrayList<>();
    top.add(row(layout.chLocal(), "local subspace: " + ch(viewer) + "'s own memory and MMIO"));
    TextTable.append(sb, "  ", top);
    for (Plane plane : Plane.values()) {
      AddressRange v = layout.chView(plane);
      sb.append("  ").append(halfOpen(v)).append("  ").append(hex(v)).append("  MH's ")
          .append(plane.pms()).append(" through ").append(ch(viewer)).append("'s ")
          .append(plane.ntb()).append(" NTB\n");
      List<String[]> rows = new ArrayList<>();
      if (plane == Plane.PRIMARY) {
        rows.add(row(layout.chRangeOfMh(), "MH local subspace (1 NTB hop)"));
      } else {
        rows.add(row(AddressRange.ofSize(v.base(), l), "PMS2's local slot: nothing answers"));
      }
      for (int i = 1; i <= layout.computeHosts(); i++) {
        String what = i == viewer
            ? ch(i) + " itself: nothing answers (it would re-enter the NTB port it left by)"
            : ch(i) + ", 2 NTB hops: CH" + viewer + "'s " + plane.ntb() + " NTB, then CH" + i
                + "'s";
        rows.add(row(layout.chRangeOf(i, plane), what));
      }
      free(rows, layout.chActiveView(plane).limit(), v.limit(), "unmapped (free slots)");
      TextTable.append(sb, "    ", rows);
    }
  }

  private String ch(int i) {
    return "CH" + i + (names.isEmpty() ? "" : " (" + names.get(i - 1) + ")");
  }

  private static void free(List<String[]> rows, long lastUsed, long end, String what) {
    if (Long.compareUnsigned(lastUsed, end) < 0) {
      rows.add(row(new AddressRange(lastUsed + 1, end), what));
    }
  }

  private static String[] row(AddressRange r, String what) {
    return new String[] {halfOpen(r), hex(r), MemorySizes.size(r.size()), what};
  }

  private static String halfOpen(AddressRange r) {
    return MemorySizes.halfOpen(r);
  }

  /** {@code 0x18_0000_0000..0x1F_FFFF_FFFF}: base and inclusive limit, as BAR registers hold them. */
  static String hex(AddressRange r) {
    return MemorySizes.hex(r.base()) + ".." + MemorySizes.hex(r.limit());
  }

  private static String count(long n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }

}
