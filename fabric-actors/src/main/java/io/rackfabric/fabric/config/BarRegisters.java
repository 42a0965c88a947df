package io.rackfabric.fabric.config;

import io.rackfabric.fabric.address.AddressRange;
import java.util.ArrayList;
import java.util.List;

/**
 * The 64-bit memory BARs of one type-0 function (an endpoint, or one side of an NTB port), as
 * configuration reads and writes see them. BAR i takes registers {@code REG_BAR0 + 2i} (low dword,
 * with the type bits) and {@code REG_BAR0 + 2i + 1} (high dword); at most three BARs are visible.
 *
 * <p>Sizing works as PCIe specifies: a dword written all ones reads back the BAR's size mask until
 * a real address is written to it; the BAR keeps decoding its old address meanwhile. A size that
 * is not a power of two reports the mask of the next power of two (the function still decodes
 * only its own bytes). Unlike real hardware the low address bits below the size stay writable, so
 * a window that is not naturally aligned (the Ladon testbed's 1 TiB NTB window at 32 GiB) can be
 * programmed as the topology describes it.
 *
 * <p>Mutable: owned by one actor, changed only through its configuration requests.
 */
public final class BarRegisters {

  /** How many BARs configuration space can show (six dwords, two per 64-bit BAR). */
  public static final int MAX_BARS = 3;

  private final long[] bases;
  private final long[] sizes;
  private final int typeBits;
  /** Bit r set: BAR dword r (0..5) was last written all ones and reads back the size mask. */
  private int sizing;

  /**
   * @param bars the BARs in BAR order; only the first {@value #MAX_BARS} are visible
   * @param prefetchable whether the BARs say prefetchable (NTB windows) or not (device registers)
   */
  public BarRegisters(List<AddressRange> bars, boolean prefetchable) {
    int n = Math.min(MAX_BARS, bars.size());
    this.bases = new long[n];
    this.sizes = new long[n];
    for (int i = 0; i < n; i++) {
      bases[i] = bars.get(i).base();
      sizes[i] = bars.get(i).size();
    }
    this.typeBits = 0x4 | (prefetchable ? 0x8 : 0); // 64-bit memory BAR
  }

  public static boolean isBarRegister(int register) {
    return register >= ConfigSpace.REG_BAR0 && register < ConfigSpace.REG_BAR0 + 2 * MAX_BARS;
  }

  /** The value a read of {@code register} returns; 0 for BAR dwords no BAR backs. */
  public int read(int register) {
    int dword = register - ConfigSpace.REG_BAR0;
    int bar = dword / 2;
    if (!isBarRegister(register) || bar >= bases.length) {
      return 0;
    }
    boolean low = dword % 2 == 0;
    long value = (sizing & (1 << dword)) != 0 ? sizeMask(sizes[bar]) : bases[bar];
    return low ? (int) (value & 0xFFFF_FFF0L) | typeBits : (int) (value >>> 32);
  }

  /**
   * Applies a write. Returns true when a BAR's decoded range moved (all ones starts sizing and
   * moves nothing; a write that would run the BAR past 64 bits is ignored).
   */
  public boolean write(int register, int value) {
    int dword = register - ConfigSpace.REG_BAR0;
    int bar = dword / 2;
    if (!isBarRegister(register) || bar >= bases.length) {
      return false;
    }
    if (value == 0xFFFF_FFFF) {
      sizing |= 1 << dword;
      return false;
    }
    sizing &= ~(1 << dword);
    long old = bases[bar];
    long moved = dword % 2 == 0
        ? (old & 0xFFFF_FFFF_0000_0000L) | (value & 0xFFFF_FFF0L)
        : ((value & 0xFFFF_FFFFL) << 32) | (old & 0xFFFF_FFFFL);
    if (moved == old || Long.compareUnsigned(moved + sizes[bar] - 1, moved) < 0) {
      return false;
    }
    bases[bar] = moved;
    return true;
  }

  /** The ranges the BARs decode now, in BAR order. */
  public List<AddressRange> windows() {
    List<AddressRange> out = new ArrayList<>(bases.length);
    for (int i = 0; i < bases.length; i++) {
      out.add(AddressRange.ofSize(bases[i], sizes[i]));
    }
    return out;
  }

  /** The mask a sized BAR reads back: address bits the function decodes, as a 64-bit value. */
  public static long sizeMask(long size) {
    long pow2 = Long.bitCount(size) == 1 ? size : Long.highestOneBit(size) << 1;
    return pow2 == 0 ? 0 : -pow2;
  }
}
