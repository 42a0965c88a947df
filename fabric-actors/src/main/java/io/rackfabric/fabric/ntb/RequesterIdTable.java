package io.rackfabric.fabric.ntb;

import java.util.Arrays;

/**
 * One direction of an NTB's requester-ID translation: requesters of one domain get proxy IDs in
 * the other, {@code (bus, device, index)}, so that completions find their way back. Entries are
 * taken on first use; a full table rejects further requesters (counted by the caller).
 */
public final class RequesterIdTable {

  public static final int ENTRIES = 8;

  private final int[] originals = new int[ENTRIES];
  private int used;

  public RequesterIdTable() {
    Arrays.fill(originals, -1);
  }

  /** The proxy function index for {@code original}, allocating one; -1 when the table is full. */
  public int indexFor(int original) {
    for (int i = 0; i < used; i++) {
      if (originals[i] == original) {
        return i;
      }
    }
    if (used == ENTRIES) {
      return -1;
    }
    originals[used] = original;
    return used++;
  }

  /** The original requester behind proxy function {@code index}; -1 when unassigned. */
  public int original(int index) {
    return index >= 0 && index < used ? originals[index] : -1;
  }

  public int used() {
    return used;
  }
}
