package io.rackfabric.host.enumeration;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.text.TextTable;
import io.rackfabric.host.memory.MemorySizes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Renders an {@link EnumerationResult}: a tree like {@code lspci -t}, then its tables. */
public final class EnumerationText {

  private EnumerationText() {}

  public static String render(EnumerationResult r) {
    StringBuilder sb = new StringBuilder();
    List<FunctionNode> all = r.all();
    sb.append("Enumeration from ").append(r.root()).append(" (").append(r.mode().label()).append(" mode): ")
        .append(all.size()).append(all.size() == 1 ? " function, " : " functions, ")
        .append(r.configRequests()).append(" configuration requests, ")
        .append(String.format(Locale.ROOT, "%.3f", r.modelNs() / 1000.0)).append(" us model time\n");
    if (all.isEmpty()) {
      sb.append("  (nothing answered on the root's bus)\n");
    }
    for (int i = 0; i < r.functions().size(); i++) {
      tree(sb, r.functions().get(i), "", "");
    }

    List<String[]> bridges = new ArrayList<>();
    bridges.add(new String[] {"function", "location", "kind", "pri/sec/sub", "memory window", "prefetchable window"});
    List<String[]> bars = new ArrayList<>();
    bars.add(new String[] {"function", "location", "kind", "BAR", "size", "type", "assigned"});
    for (FunctionNode f : all) {
      if (f.bridge() != null) {
        BridgeRegisters b = f.bridge();
        bridges.add(new String[] {f.id(), f.location(), f.kind().label(),
            b.primaryBus() + "/" + b.secondaryBus() + "/" + b.subordinateBus(), window(b.memory()), window(b.prefetchable())});
      }
      for (Bar bar : f.bars()) {
        bars.add(new String[] {f.id(), f.location(), f.kind().label(), String.valueOf(bar.index()),
            MemorySizes.size(bar.size()), (bar.is64() ? "64-bit" : "32-bit") + (bar.prefetchable() ? " pref" : ""),
            bar.assigned() ? window(bar.range()) : "unassigned"});
      }
    }
    if (bridges.size() > 1) {
      sb.append("\nBridges (bus numbers and windows)\n");
      TextTable.append(sb, "  ", bridges);
    }
    if (bars.size() > 1) {
      sb.append("\nBARs\n");
      TextTable.append(sb, "  ", bars);
    }
    if (!r.slots().isEmpty()) {
      List<String[]> slots = new ArrayList<>();
      slots.add(new String[] {"group", "slot", "function", "buses", "block", "occupied"});
      for (SlotReservation s : r.slots()) {
        slots.add(new String[] {s.group(), String.valueOf(s.slot()), io.rackfabric.fabric.tlp.Bdf.format(s.bdf()),
            s.buses(), window(s.block()), s.occupied() ? "yes" : "no"});
      }
      sb.append("\nSlots (reserved whether occupied or not)\n");
      TextTable.append(sb, "  ", slots);
    }
    if (!r.problems().isEmpty()) {
      sb.append("\nProblems\n");
      r.problems().forEach(p -> sb.append("  ").append(p).append('\n'));
    }
    return sb.toString();
  }

  private static void tree(StringBuilder sb, FunctionNode f, String lead, String childLead) {
    sb.append(lead).append(f.id()).append("  ").append(f.kind().label()).append(' ')
        .append(String.format("%04x:%04x", f.vendor(), f.device()));
    if (f.bridge() != null) {
      sb.append("  [").append(f.bridge().secondaryBus()).append('-').append(f.bridge().subordinateBus()).append(']');
    }
    if (f.slotGroup() != null) {
      sb.append("  slot ").append(f.slotGroup()).append('/').append(f.slot());
    }
    for (Bar bar : f.bars()) {
      sb.append("  BAR").append(bar.index()).append(' ').append(MemorySizes.size(bar.size()));
      if (bar.assigned()) {
        sb.append(" @").append(MemorySizes.hex(bar.base()));
      }
    }
    sb.append('\n');
    for (int i = 0; i < f.children().size(); i++) {
      boolean last = i == f.children().size() - 1;
      tree(sb, f.children().get(i), childLead + (last ? "\\-" : "+-"), childLead + (last ? "  " : "| "));
    }
  }

  private static String window(AddressRange w) {
    return w == null ? "-" : MemorySizes.hex(w.base()) + ".." + MemorySizes.hex(w.limit()) + " (" + MemorySizes.size(w.size()) + ")";
  }
}
