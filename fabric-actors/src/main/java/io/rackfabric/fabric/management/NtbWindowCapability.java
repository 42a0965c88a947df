package io.rackfabric.fabric.management;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.ntb.NtbBar;
import java.util.ArrayList;
import java.util.List;

/**
 * The windows of one NTB port of a switch chip, as its chip's device manager holds them, in
 * aperture 2 of the chip's configuration space at {@code port * 200h} (ours: AS-FM gives no NTB
 * capability; a PEX-style NTB keeps each BAR's size in its EEPROM and its translation in a register
 * software writes, here both for the fabric manager). Every slot fits one PI-4 write:
 *
 * <pre>
 * +00h  [31:20] next capability (0)  [19:16] version 1  [15:0] ID F004h (our choice)
 * +04h  [7:0] link-side slots in use  [15:8] virtual-side slots in use: written alone, last; the
 *       port's windows are then the slots in use, both sides at once
 * +08h  [7:0] the port's number  [15:8] slots per side (read-only)
 * +0Ch to +1Ch reserved
 * 20h + 20h * slot (slots 0 to 5 the link side, 6 to 11 the virtual side):
 * +00h, +04h  the window's base, low and high 32 bits
 * +08h, +0Ch  its size in bytes, low and high
 * +10h, +14h  the translation: where the window's base lands on the other side, low and high
 * +18h, +1Ch  reserved
 * </pre>
 *
 * A slot write holds its six registers (a size of 0 or a window or translation past 64 bits is
 * malformed); a header write whose slots in use do not make a port's windows (overlapping windows on
 * one side) is malformed and changes nothing. The slots start as the rack's file programmed the port.
 */
final class NtbWindowCapability implements ConfigRegion {

  static final int APERTURE = 2;
  static final int ID = 0xF004;
  static final long BLOCK = 0x200;
  static final long HEADER = 4;
  static final long FIRST_SLOT = 0x20;
  static final int SLOT_DWORDS = 6;
  private static final int SLOT_STRIDE = 8;
  /** Windows per side: a type-0 header's six BARs. */
  static final int SLOTS_PER_SIDE = 6;

  private final int port;
  private final long[][] slots = new long[2 * SLOTS_PER_SIDE][];
  private int linkInUse;
  private int virtualInUse;
  /** The header was written since {@link #takeChanged} looked. */
  private boolean changed;

  NtbWindowCapability(int port, List<NtbBar> linkBars, List<NtbBar> virtualBars) {
    this.port = port;
    linkInUse = load(0, "link", linkBars);
    virtualInUse = load(SLOTS_PER_SIDE, "virtual", virtualBars);
  }

  private int load(int first, String side, List<NtbBar> bars) {
    if (bars.size() > SLOTS_PER_SIDE) {
      throw new IllegalArgumentException("ntb port " + port + ": " + side + "-bars=" + bars.size() + " not in [0,"
          + SLOTS_PER_SIDE + "]");
    }
    for (int i = 0; i < bars.size(); i++) {
      NtbBar b = bars.get(i);
      slots[first + i] = new long[] {b.window().base(), b.window().size(), b.translatedBase()};
    }
    return bars.size();
  }

  @Override
  public long offset() {
    return port * BLOCK;
  }

  @Override
  public int dwords() {
    return (int) (BLOCK / 4);
  }

  @Override
  public int read(int index, int ingressPort) {
    if (index == 0) {
      return (1 << 16) | ID;
    }
    if (index == 1) {
      return linkInUse | virtualInUse << 8;
    }
    if (index == 2) {
      return port | SLOTS_PER_SIDE << 8;
    }
    int slot = slotOf(index);
    int within = (index - (int) (FIRST_SLOT / 4)) % SLOT_STRIDE;
    if (slot < 0 || within >= SLOT_DWORDS || slots[slot] == null) {
      return 0;
    }
    long value = slots[slot][within / 2];
    return within % 2 == 0 ? (int) value : (int) (value >>> 32);
  }

  private static int slotOf(int index) {
    int rel = index - (int) (FIRST_SLOT / 4);
    int slot = rel < 0 ? -1 : rel / SLOT_STRIDE;
    return slot < 2 * SLOTS_PER_SIDE ? slot : -1;
  }

  @Override
  public boolean wellFormed(int index, int[] data) {
    if (index == HEADER / 4) {
      int link = data[0] & 0xFF;
      int virtual = (data[0] >>> 8) & 0xFF;
      return data.length == 1 && (data[0] >>> 16) == 0 && link <= SLOTS_PER_SIDE && virtual <= SLOTS_PER_SIDE
          && bars(0, link) != null && bars(SLOTS_PER_SIDE, virtual) != null;
    }
    if (slotOf(index) < 0 || (index - FIRST_SLOT / 4) % SLOT_STRIDE != 0) {
      return index < FIRST_SLOT / 4; // the read-only registers: refused as such
    }
    if (data.length != SLOT_DWORDS) {
      return false;
    }
    long base = wide(data, 0);
    long size = wide(data, 2);
    long translation = wide(data, 4);
    return size != 0 && Long.compareUnsigned(base + size - 1, base) >= 0
        && Long.compareUnsigned(translation + size - 1, translation) >= 0;
  }

  @Override
  public boolean write(int index, int[] data) {
    if (index == HEADER / 4) {
      linkInUse = data[0] & 0xFF;
      virtualInUse = (data[0] >>> 8) & 0xFF;
      changed = true;
      return true;
    }
    int slot = slotOf(index);
    if (slot < 0) {
      return false;
    }
    slots[slot] = new long[] {wide(data, 0), wide(data, 2), wide(data, 4)};
    return true;
  }

  private static long wide(int[] data, int at) {
    return (data[at] & 0xFFFFFFFFL) | ((long) data[at + 1] << 32);
  }

  /** The windows of slots [first, first + count), or null when they are not a side's windows. */
  private List<NtbBar> bars(int first, int count) {
    List<NtbBar> out = new ArrayList<>();
    for (int i = first; i < first + count; i++) {
      long[] s = slots[i];
      if (s == null) {
        return null;
      }
      NtbBar bar = new NtbBar(AddressRange.ofSize(s[0], s[1]), s[2]);
      for (NtbBar earlier : out) {
        if (earlier.window().overlaps(bar.window())) {
          return null;
        }
      }
      out.add(bar);
    }
    return out;
  }

  int port() {
    return port;
  }

  List<NtbBar> linkBars() {
    return bars(0, linkInUse);
  }

  List<NtbBar> virtualBars() {
    return bars(SLOTS_PER_SIDE, virtualInUse);
  }

  /** Whether a header write took effect since the last call; then false. */
  boolean takeChanged() {
    boolean c = changed;
    changed = false;
    return c;
  }

  /**
   * The PI-4 writes with which the fabric manager, at the far end of {@code toChip}, makes port
   * {@code port}'s windows exactly {@code linkBars} and {@code virtualBars}: one per window, then the
   * header.
   *
   * @throws IllegalArgumentException naming the value when a side has more windows than slots
   */
  static List<Pi4Write> programming(Route toChip, int trafficClass, int port, List<NtbBar> linkBars,
      List<NtbBar> virtualBars) {
    if (linkBars.size() > SLOTS_PER_SIDE || virtualBars.size() > SLOTS_PER_SIDE) {
      throw new IllegalArgumentException("ntb port " + port + ": link-bars=" + linkBars.size() + ", virtual-bars="
          + virtualBars.size() + ", each at most " + SLOTS_PER_SIDE);
    }
    List<Pi4Write> out = new ArrayList<>();
    for (int i = 0; i < linkBars.size(); i++) {
      out.add(slotWrite(toChip, trafficClass, port, i, linkBars.get(i)));
    }
    for (int i = 0; i < virtualBars.size(); i++) {
      out.add(slotWrite(toChip, trafficClass, port, SLOTS_PER_SIDE + i, virtualBars.get(i)));
    }
    out.add(new Pi4Write(toChip, trafficClass, APERTURE, port * BLOCK + HEADER,
        new int[] {linkBars.size() | virtualBars.size() << 8}));
    return out;
  }

  private static Pi4Write slotWrite(Route toChip, int trafficClass, int port, int slot, NtbBar bar) {
    long base = bar.window().base();
    long size = bar.window().size();
    long t = bar.translatedBase();
    return new Pi4Write(toChip, trafficClass, APERTURE, port * BLOCK + FIRST_SLOT + 4L * SLOT_STRIDE * slot,
        new int[] {(int) base, (int) (base >>> 32), (int) size, (int) (size >>> 32), (int) t, (int) (t >>> 32)});
  }
}
