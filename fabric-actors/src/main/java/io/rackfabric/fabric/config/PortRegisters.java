package io.rackfabric.fabric.config;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.ntb.NtbBar;
import io.rackfabric.fabric.ntb.NtbConfig;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.PortConfig;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;

/**
 * The configuration registers of one switch port, owned by its port actor: what configuration
 * reads return and what writes change. Writes that change routing (bus numbers, windows, NTB BARs)
 * yield a new {@link PortConfig} for the chip to publish.
 *
 * <p>The registers are kept as written, not re-derived from the routing state, so that they read
 * back what software wrote even while they decode to nothing: a prefetchable window whose upper
 * base is written before its upper limit passes through base above limit (disabled), and the
 * next write must still see both halves; an NTB BAR moved onto another BAR of the same side
 * routes as before until that one moves too. BAR sizing state lives here too, so it never reaches
 * the routing table.
 *
 * <p>The chip publishes a port's own writes back to it in a new routing table, later than the
 * port needs them (the next write of an enumeration may come first). Until the table has caught
 * up with every change sent, the registers here stay authoritative for the port's own state.
 */
public final class PortRegisters {

  private PortConfig local;
  private int buses;
  private int memory;
  private int prefetch;
  private int prefetchBaseUpper;
  private int prefetchLimitUpper;
  private BarRegisters linkBars;
  private BarRegisters virtualBars;
  /** Configurations sent to the chip that no routing table has reflected yet, oldest first. */
  private final Deque<PortConfig> unpublished = new ArrayDeque<>();

  public PortRegisters(PortConfig initial) {
    load(initial);
  }

  /** The port's configuration as its registers define it now. */
  public PortConfig current() {
    return local;
  }

  /**
   * Takes the port's entry of a new routing table and returns the configuration the port should
   * use: the table's, or, while the table still lags behind this port's own writes, the
   * registers' (with the table's virtual switch, which only the chip changes).
   */
  public PortConfig adopt(PortConfig fromTable) {
    if (!unpublished.isEmpty()) {
      int matched = -1;
      int i = 0;
      for (PortConfig sent : unpublished) {
        if (sameRegisters(sent, fromTable)) {
          matched = i;
        }
        i++;
      }
      for (int k = 0; k <= matched; k++) {
        unpublished.removeFirst();
      }
      if (!unpublished.isEmpty()) {
        local = ours(fromTable);
        return local;
      }
    }
    if (!sameRegisters(fromTable, local)) {
      load(fromTable); // changed by someone else (the topology, a test): start over from it
    }
    local = fromTable;
    return fromTable;
  }

  /** Whether the port has sent changes that no routing table has reflected yet. */
  public boolean awaitingTable() {
    return !unpublished.isEmpty();
  }

  /** The table's configuration with what configuration writes set taken from the registers. */
  private PortConfig ours(PortConfig fromTable) {
    if (fromTable.ntb() == null || local.ntb() == null) {
      return fromTable.withBridge(local.bridge());
    }
    NtbConfig t = fromTable.ntb();
    return fromTable.withNtb(new NtbConfig(t.virtualSideBdf(), t.linkSideBus(), local.ntb().linkBars(),
        local.ntb().virtualBars(), t.requesterIds()));
  }

  /** A configuration read; {@code virtualSide} for an NTB's virtual-side endpoint. */
  public int read(int register, boolean virtualSide) {
    if (local.ntb() != null) {
      BarRegisters bars = virtualSide ? virtualBars : linkBars;
      if (BarRegisters.isBarRegister(register)) {
        return bars.read(register);
      }
      return ConfigSpace.readType0(ConfigSpace.VENDOR_PLX, ConfigSpace.DEVICE_NTB, 0x068000,
          List.of(), register);
    }
    return switch (register) {
      case ConfigSpace.REG_BUSES -> buses;
      case ConfigSpace.REG_MEMORY -> memory;
      case ConfigSpace.REG_PREFETCH -> prefetch;
      case ConfigSpace.REG_PREFETCH_BASE_UPPER -> prefetchBaseUpper;
      case ConfigSpace.REG_PREFETCH_LIMIT_UPPER -> prefetchLimitUpper;
      default -> ConfigSpace.readPort(local, register);
    };
  }

  /**
   * A configuration write. Returns the port's new configuration when routing changed (the caller
   * publishes it through the chip), or null when it did not.
   */
  public PortConfig write(int register, int value, boolean virtualSide) {
    PortConfig next = local.ntb() != null ? writeNtb(register, value, virtualSide) : writeBridge(register, value);
    if (next == null || next.equals(local)) {
      return null;
    }
    local = next;
    unpublished.addLast(next);
    return next;
  }

  /** Re-decodes only what the written register holds, so untouched windows keep their exact value. */
  private PortConfig writeBridge(int register, int value) {
    BridgeRegisters b = local.bridge();
    switch (register) {
      case ConfigSpace.REG_BUSES -> {
        buses = value & 0x00FF_FFFF;
        int secondary = (buses >>> 8) & 0xFF;
        return local.withBridge(b.withBuses(buses & 0xFF, secondary, Math.max(secondary, (buses >>> 16) & 0xFF)));
      }
      case ConfigSpace.REG_MEMORY -> {
        memory = value & 0xFFF0_FFF0;
        return local.withBridge(b.withMemory(ConfigSpace.decodeWindow(memory, 0, 0)));
      }
      case ConfigSpace.REG_PREFETCH, ConfigSpace.REG_PREFETCH_BASE_UPPER, ConfigSpace.REG_PREFETCH_LIMIT_UPPER -> {
        if (register == ConfigSpace.REG_PREFETCH) {
          prefetch = (value & 0xFFF0_FFF0) | 0x0001_0001; // 64-bit capable, read-only
        } else if (register == ConfigSpace.REG_PREFETCH_BASE_UPPER) {
          prefetchBaseUpper = value;
        } else {
          prefetchLimitUpper = value;
        }
        return local.withBridge(b.withPrefetchable(
            ConfigSpace.decodeWindow(prefetch, prefetchBaseUpper, prefetchLimitUpper)));
      }
      default -> {
        return null;
      }
    }
  }

  private PortConfig writeNtb(int register, int value, boolean virtualSide) {
    BarRegisters bars = virtualSide ? virtualBars : linkBars;
    if (!bars.write(register, value)) {
      return null;
    }
    NtbConfig ntb = local.ntb();
    try {
      NtbConfig moved = new NtbConfig(ntb.virtualSideBdf(), ntb.linkSideBus(), moveBars(ntb.linkBars(), linkBars),
          moveBars(ntb.virtualBars(), virtualBars), ntb.requesterIds());
      return new PortConfig(local.name(), local.number(), local.role(), local.virtualSwitch(), null, moved);
    } catch (IllegalArgumentException e) {
      // Two BARs of one side overlap for now (software moves one BAR, then the other), which the
      // NTB model cannot decode: the registers keep what was written, routing keeps the last
      // decodable BARs until a later write separates them again.
      return null;
    }
  }

  /** The NTB's BARs with their windows moved to where the registers now put them. */
  private static List<NtbBar> moveBars(List<NtbBar> bars, BarRegisters registers) {
    List<AddressRange> windows = registers.windows();
    List<NtbBar> out = new ArrayList<>(bars.size());
    for (int i = 0; i < bars.size(); i++) {
      out.add(i < windows.size() ? new NtbBar(windows.get(i), bars.get(i).translatedBase()) : bars.get(i));
    }
    return out;
  }

  private void load(PortConfig config) {
    local = config;
    if (config.ntb() != null) {
      linkBars = new BarRegisters(config.ntb().linkBars().stream().map(NtbBar::window).toList(), true);
      virtualBars = new BarRegisters(config.ntb().virtualBars().stream().map(NtbBar::window).toList(), true);
    } else {
      buses = ConfigSpace.readPort(config, ConfigSpace.REG_BUSES);
      memory = ConfigSpace.readPort(config, ConfigSpace.REG_MEMORY);
      prefetch = ConfigSpace.readPort(config, ConfigSpace.REG_PREFETCH);
      prefetchBaseUpper = ConfigSpace.readPort(config, ConfigSpace.REG_PREFETCH_BASE_UPPER);
      prefetchLimitUpper = ConfigSpace.readPort(config, ConfigSpace.REG_PREFETCH_LIMIT_UPPER);
    }
  }

  /**
   * Whether two configurations agree on everything configuration writes can change (the chip
   * changes the rest: virtual switch, requester-ID tables).
   */
  private static boolean sameRegisters(PortConfig a, PortConfig b) {
    if (!Objects.equals(a.bridge(), b.bridge()) || (a.ntb() == null) != (b.ntb() == null)) {
      return false;
    }
    return a.ntb() == null || (a.ntb().linkBars().equals(b.ntb().linkBars())
        && a.ntb().virtualBars().equals(b.ntb().virtualBars()));
  }
}
