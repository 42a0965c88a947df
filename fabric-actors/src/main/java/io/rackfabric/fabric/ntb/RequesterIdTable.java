package io.rackfabric.fabric.ntb;

import java.util.Arrays;

/**
 * One direction of an NTB's requester-ID translation: requesters of one domain get proxy IDs in
 * the other (entry {@code index} is proxy ID {@code index} of a {@link ProxyIdSpace}), so that
 * completions find their way back.
 *
 * <p>Entries are either <em>programmed</em> ahead of traffic by the management host (stable IDs,
 * in the order it programs them) or taken on first use, the fallback for requesters nobody
 * programmed. Both take the lowest free index; a full table refuses further requesters and counts
 * each refusal. Entries are never freed: a completion may still be on its way back.
 *
 * <p>The per-TLP lookup is a binary search over primitive arrays with a one-entry cache in front
 * (traffic mostly repeats its requester) and allocates nothing.
 */
public final class RequesterIdTable {

  private final int capacity;
  /** The original requester behind each index; -1 when free. */
  private final int[] originals;
  private final boolean[] programmed;
  /** Original requester to index, sorted by requester, for the lookup. */
  private int[] keys = new int[8];
  private int[] indices = new int[8];
  private int size;
  private int used;
  private long refused;
  private int cachedOriginal = -1;
  private int cachedIndex = -1;

  /** A table of {@code capacity} entries: 8 (one device's functions) or 256 (ARI). */
  public RequesterIdTable(int capacity) {
    if (capacity < 1 || capacity > ProxyIdSpace.ARI_FUNCTIONS) {
      throw new IllegalArgumentException(
          "capacity=" + capacity + " not in [1," + ProxyIdSpace.ARI_FUNCTIONS + "]");
    }
    this.capacity = capacity;
    this.originals = new int[capacity];
    this.programmed = new boolean[capacity];
    Arrays.fill(originals, -1);
  }

  public int capacity() {
    return capacity;
  }

  /** The index of {@code original}, or -1 when it has none; never allocates. */
  public int indexOf(int original) {
    if (original == cachedOriginal) {
      return cachedIndex;
    }
    int k = Arrays.binarySearch(keys, 0, size, original);
    if (k < 0) {
      return -1;
    }
    cachedOriginal = original;
    cachedIndex = indices[k];
    return cachedIndex;
  }

  /**
   * The index for {@code original} on the data path: its entry, or the lowest free one taken on
   * first use; -1 (counted in {@link #refused()}) when the table is full.
   */
  public int indexFor(int original) {
    int i = indexOf(original);
    if (i >= 0) {
      return i;
    }
    i = lowestFree();
    if (i < 0) {
      refused++;
      return -1;
    }
    assign(i, original, false);
    return i;
  }

  /**
   * Programs {@code original}: an entry it already has (taken on first use) becomes programmed
   * and keeps its index, so completions in flight still find their requester; otherwise the
   * lowest free index. Returns the index, or -1 when the table is full.
   */
  public int program(int original) {
    int i = indexOf(original);
    if (i >= 0) {
      programmed[i] = true;
      return i;
    }
    i = lowestFree();
    if (i >= 0) {
      assign(i, original, true);
    }
    return i;
  }

  /**
   * Puts a programmed entry at a given index (an entry of the NTB's configuration). Returns false,
   * changing nothing, when the index is outside the table or holds another requester.
   */
  public boolean place(int index, int original) {
    if (index < 0 || index >= capacity) {
      return false;
    }
    if (originals[index] == original) {
      programmed[index] = true;
      map(original, index);
      return true;
    }
    if (originals[index] >= 0) {
      return false;
    }
    // If original already had another entry, that one keeps mapping back (a completion may be
    // under way to it) while new requests take the configured index.
    assign(index, original, true);
    return true;
  }

  /** The original requester behind {@code index}; -1 when unassigned. */
  public int original(int index) {
    return index >= 0 && index < capacity ? originals[index] : -1;
  }

  public boolean isProgrammed(int index) {
    return index >= 0 && index < capacity && programmed[index];
  }

  public int used() {
    return used;
  }

  /** Requests turned away by {@link #indexFor} because the table was full. */
  public long refused() {
    return refused;
  }

  private int lowestFree() {
    if (used == capacity) {
      return -1;
    }
    for (int i = 0; i < capacity; i++) {
      if (originals[i] < 0) {
        return i;
      }
    }
    return -1;
  }

  private void assign(int index, int original, boolean isProgrammed) {
    originals[index] = original;
    programmed[index] = isProgrammed;
    used++;
    map(original, index);
  }

  private void map(int original, int index) {
    int k = Arrays.binarySearch(keys, 0, size, original);
    if (k >= 0) {
      indices[k] = index;
    } else {
      k = -k - 1;
      if (size == keys.length) {
        keys = Arrays.copyOf(keys, size * 2);
        indices = Arrays.copyOf(indices, size * 2);
      }
      System.arraycopy(keys, k, keys, k + 1, size - k);
      System.arraycopy(indices, k, indices, k + 1, size - k);
      keys[k] = original;
      indices[k] = index;
      size++;
    }
    cachedOriginal = original;
    cachedIndex = index;
  }
}
