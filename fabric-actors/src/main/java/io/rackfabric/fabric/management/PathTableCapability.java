package io.rackfabric.fabric.management;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An endpoint's path table as its device manager holds it, in aperture 1 of its configuration
 * space (ours: AS-FM says the fabric manager distributes paths to the endpoints with PI-4 writes
 * but not where they land). Every entry fits one PI-4 write of eight registers:
 *
 * <pre>
 * +00h  [31:20] next capability (0)  [19:16] version 1  [15:0] ID F003h (our choice)
 * +04h  [15:0] slots in use           }  written together, last in a distribution:
 * +08h  generation                    }  the table is whole from then on
 * +0Ch to +1Ch reserved
 * 20h + 20h * slot, a slot:
 * +00h, +04h  the destination's serial number, low and high 32 bits
 * +08h  [31] valid  [15:8] rank (0: the route chosen, 1: an alternate)  [7:0] turns (1 to 20; 0 when not valid)
 * +0Ch  the route, four 8-bit turns a register, first turn in bits [7:0], up to five registers
 * </pre>
 *
 * A slot write must start at the slot's +00h and hold its three registers and every turn it names
 * (an invalid slot: three registers, all zero but nothing); a header write is +04h and +08h
 * together with at most {@link #MAX_SLOTS} slots. Anything else inside the table is malformed:
 * ignored and counted ({@link ConfigurationSpace#malformedWrites}); a write to the ID or the
 * reserved registers is read-only. Slots hold no storage until written.
 */
final class PathTableCapability implements ConfigRegion {

  static final int APERTURE = 1;
  static final int ID = 0xF003;
  static final long HEADER = 4;
  static final long FIRST_SLOT = 0x20;
  static final int SLOT_DWORDS = ConfigurationSpace.MAX_DWORDS;
  static final int MAX_TURNS = 4 * (SLOT_DWORDS - 3);
  static final int MAX_SLOTS = 4096;
  /** Routes a destination can have: the chosen one and an alternate. */
  static final int MAX_RANKS = 2;
  private static final int VALID = 1 << 31;

  private final Map<Integer, int[]> slots = new HashMap<>();
  private int inUse;
  private int generation;

  @Override
  public long offset() {
    return 0;
  }

  @Override
  public int dwords() {
    return (int) (FIRST_SLOT / 4) + MAX_SLOTS * SLOT_DWORDS;
  }

  @Override
  public int read(int index, int ingressPort) {
    if (index == 0) {
      return (1 << 16) | ID;
    }
    if (index == 1) {
      return inUse;
    }
    if (index == 2) {
      return generation;
    }
    if (index < FIRST_SLOT / 4) {
      return 0;
    }
    int slot = (index - (int) (FIRST_SLOT / 4)) / SLOT_DWORDS;
    int[] s = slots.get(slot);
    return s == null ? 0 : s[(index - (int) (FIRST_SLOT / 4)) % SLOT_DWORDS];
  }

  @Override
  public boolean wellFormed(int index, int[] data) {
    if (index < FIRST_SLOT / 4) {
      return index != 1 || (data.length == 2 && (data[0] >>> 16) == 0 && data[0] <= MAX_SLOTS);
    }
    if ((index - FIRST_SLOT / 4) % SLOT_DWORDS != 0 || data.length < 3) {
      return false;
    }
    int turns = data[2] & 0xFF;
    if ((data[2] & VALID) == 0) {
      return data.length == 3 && data[0] == 0 && data[1] == 0 && data[2] == 0;
    }
    if ((data[2] & ~VALID & ~0xFFFF) != 0 || ((data[2] >>> 8) & 0xFF) >= MAX_RANKS || turns < 1 || turns > MAX_TURNS || data.length != 3 + (turns + 3) / 4) {
      return false;
    }
    int spare = 4 * (data.length - 3) - turns; // turn bytes past the count must be 0
    return spare == 0 || data[data.length - 1] >>> (8 * (4 - spare)) == 0;
  }

  @Override
  public boolean write(int index, int[] data) {
    if (index == 1) {
      inUse = data[0];
      generation = data[1];
      return true;
    }
    if (index < FIRST_SLOT / 4) {
      return false;
    }
    int[] s = new int[SLOT_DWORDS];
    System.arraycopy(data, 0, s, 0, data.length);
    slots.put((index - (int) (FIRST_SLOT / 4)) / SLOT_DWORDS, s);
    return true;
  }

  /** The generation of the last whole distribution; 0 before the first. */
  int generation() {
    return generation;
  }

  /** The table as the valid slots in use say, for the endpoint {@code serial}. */
  PathTable table(long serial) {
    Map<PathTable.Key, PathTable.Entry> entries = new java.util.LinkedHashMap<>();
    for (int slot = 0; slot < inUse; slot++) {
      int[] s = slots.get(slot);
      if (s == null || (s[2] & VALID) == 0) {
        continue;
      }
      long destination = (s[0] & 0xFFFFFFFFL) | ((long) s[1] << 32);
      List<Integer> turns = new ArrayList<>();
      for (int i = 0; i < (s[2] & 0xFF); i++) {
        turns.add((s[3 + i / 4] >>> (8 * (i % 4))) & 0xFF);
      }
      PathTable.Entry e = new PathTable.Entry(destination, new Route(turns), (s[2] >>> 8) & 0xFF);
      entries.putIfAbsent(e.key(), e);
    }
    return new PathTable(serial, new ArrayList<>(entries.values()));
  }

  /**
   * The write with which the fabric manager, at the far end of {@code toEndpoint}, puts the route
   * {@code path} to {@code destination} in slot {@code slot} of the endpoint there, as the route
   * chosen.
   *
   * @throws IllegalArgumentException naming the value when the slot or the path's length is out of range
   */
  static Pi4Write entryWrite(Route toEndpoint, int trafficClass, int slot, long destination, Route path) {
    return entryWrite(toEndpoint, trafficClass, slot, new PathTable.Entry(destination, path));
  }

  /** As above, for {@code entry} at its rank. */
  static Pi4Write entryWrite(Route toEndpoint, int trafficClass, int slot, PathTable.Entry entry) {
    Route path = entry.route();
    long destination = entry.destination();
    int turns = path.hops();
    if (turns < 1 || turns > MAX_TURNS) {
      throw new IllegalArgumentException("path " + path + ": turns=" + turns + " not in [1," + MAX_TURNS + "]");
    }
    int[] data = new int[3 + (turns + 3) / 4];
    data[0] = (int) destination;
    data[1] = (int) (destination >>> 32);
    data[2] = VALID | entry.rank() << 8 | turns;
    for (int i = 0; i < turns; i++) {
      data[3 + i / 4] |= path.turns().get(i) << (8 * (i % 4));
    }
    return new Pi4Write(toEndpoint, trafficClass, APERTURE, slotOffset(slot), data);
  }

  /** The write that empties slot {@code slot} (its destination is no longer reached). */
  static Pi4Write clearWrite(Route toEndpoint, int trafficClass, int slot) {
    return new Pi4Write(toEndpoint, trafficClass, APERTURE, slotOffset(slot), new int[3]);
  }

  /** The write that ends a distribution: {@code inUse} slots, of generation {@code generation}. */
  static Pi4Write headerWrite(Route toEndpoint, int trafficClass, int inUse, int generation) {
    if (inUse < 0 || inUse > MAX_SLOTS) {
      throw new IllegalArgumentException("slots=" + inUse + " not in [0," + MAX_SLOTS + "]");
    }
    return new Pi4Write(toEndpoint, trafficClass, APERTURE, HEADER, new int[] {inUse, generation});
  }

  /** Whether {@code write} is the one that ends a distribution. */
  static boolean isHeader(Pi4Write write) {
    return write.aperture() == APERTURE && write.offset() == HEADER;
  }

  private static long slotOffset(int slot) {
    if (slot < 0 || slot >= MAX_SLOTS) {
      throw new IllegalArgumentException("slot=" + slot + " not in [0," + (MAX_SLOTS - 1) + "]");
    }
    return FIRST_SLOT + 4L * SLOT_DWORDS * slot;
  }
}
