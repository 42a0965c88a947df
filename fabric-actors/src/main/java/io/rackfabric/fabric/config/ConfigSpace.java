package io.rackfabric.fabric.config;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.PortConfig;
import java.util.List;

/**
 * Configuration space as seen by configuration reads and writes, for the registers enumeration
 * needs: IDs, class code, header type, bus numbers, memory and prefetchable windows (type 1), and
 * 64-bit memory BARs (type 0). Registers are dword indexes. Windows are encoded as PCIe does, in
 * 1 MiB units, so a window that is not 1 MiB aligned reads back rounded. These are the values
 * before any write; what software writes is kept by {@link PortRegisters} (switch ports) and
 * {@link BarRegisters} (endpoints), which start from them.
 */
public final class ConfigSpace {

  public static final int VENDOR_PLX = 0x10B5;
  public static final int DEVICE_SWITCH_PORT = 0x8748;
  public static final int DEVICE_NTB = 0x87B0;
  public static final int VENDOR_EMULATED = 0x1AF4;
  public static final int DEVICE_MEMORY = 0x10F0;

  public static final int REG_ID = 0;
  public static final int REG_COMMAND = 1;
  public static final int REG_CLASS = 2;
  public static final int REG_HEADER = 3;
  public static final int REG_BAR0 = 4;
  public static final int REG_BUSES = 6;
  public static final int REG_MEMORY = 8;
  public static final int REG_PREFETCH = 9;
  public static final int REG_PREFETCH_BASE_UPPER = 10;
  public static final int REG_PREFETCH_LIMIT_UPPER = 11;

  private ConfigSpace() {}

  /** Reads a switch port's type-1 header (NTB ports show their link-side type-0 header). */
  public static int readPort(PortConfig port, int register) {
    if (port.ntb() != null) {
      return readNtb(port.ntb().linkBars(), register);
    }
    BridgeRegisters b = port.bridge();
    return switch (register) {
      case REG_ID -> (DEVICE_SWITCH_PORT << 16) | VENDOR_PLX;
      case REG_CLASS -> 0x060400 << 8;
      case REG_HEADER -> 0x01 << 16;
      case REG_BUSES -> b.primaryBus() | (b.secondaryBus() << 8) | (b.subordinateBus() << 16);
      case REG_MEMORY -> encodeWindow32(b.memory());
      case REG_PREFETCH -> encodeWindow32(b.prefetchable()) | 0x0001_0001; // 64-bit capable
      case REG_PREFETCH_BASE_UPPER -> b.prefetchable() == null ? 0 : (int) (b.prefetchable().base() >>> 32);
      case REG_PREFETCH_LIMIT_UPPER -> b.prefetchable() == null ? 0 : (int) (b.prefetchable().limit() >>> 32);
      default -> 0;
    };
  }

  /** The NTB's virtual-side endpoint, as the slave domain's root enumerates it. */
  public static int readNtbVirtualSide(PortConfig port, int register) {
    return readNtb(port.ntb().virtualBars(), register);
  }

  /** An NTB side's type-0 header: its BARs are 64-bit prefetchable windows. */
  private static int readNtb(List<io.rackfabric.fabric.ntb.NtbBar> ntbBars, int register) {
    if (BarRegisters.isBarRegister(register)) {
      return new BarRegisters(bars(ntbBars), true).read(register);
    }
    return readType0(VENDOR_PLX, DEVICE_NTB, 0x068000, List.of(), register);
  }

  /**
   * A type-0 header with 64-bit non-prefetchable memory BARs (each BAR takes two registers), as
   * they read before any write; {@link BarRegisters} keeps them once software writes them.
   */
  public static int readType0(int vendor, int device, int classCode, List<AddressRange> bars, int register) {
    if (register == REG_ID) {
      return (device << 16) | vendor;
    }
    if (register == REG_CLASS) {
      return classCode << 8;
    }
    if (register == REG_HEADER) {
      return 0;
    }
    int barRegister = register - REG_BAR0;
    if (barRegister >= 0 && barRegister < 6 && barRegister / 2 < bars.size()) {
      AddressRange bar = bars.get(barRegister / 2);
      return barRegister % 2 == 0 ? (int) (bar.base() & 0xFFFF_FFF0L) | 0x4 : (int) (bar.base() >>> 32);
    }
    return 0;
  }

  private static List<AddressRange> bars(List<io.rackfabric.fabric.ntb.NtbBar> ntbBars) {
    return ntbBars.stream().map(io.rackfabric.fabric.ntb.NtbBar::window).toList();
  }

  private static int encodeWindow32(AddressRange window) {
    if (window == null) {
      return 0x0000_FFF0; // base above limit: window disabled
    }
    int base = (int) ((window.base() >>> 16) & 0xFFF0);
    int limit = (int) ((window.limit() >>> 16) & 0xFFF0);
    return base | (limit << 16);
  }

  /**
   * The window a base/limit register pair encodes (1 MiB units; the upper dwords of a 64-bit
   * prefetchable window, 0 for the memory window), or null when base is above limit (disabled).
   */
  public static AddressRange decodeWindow(int value, int baseUpper, int limitUpper) {
    long base = ((baseUpper & 0xFFFF_FFFFL) << 32) | ((long) (value & 0xFFF0) << 16);
    long limit = ((limitUpper & 0xFFFF_FFFFL) << 32) | ((long) ((value >>> 16) & 0xFFF0) << 16) | 0xFFFFF;
    return Long.compareUnsigned(base, limit) > 0 ? null : new AddressRange(base, limit);
  }
}
