package io.rackfabric.host.iommu;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The accesses an IOMMU denied, per requester, reads and writes apart. Kept apart from the open
 * pages: most denied requesters have no open page at all. Sorted primitive arrays rather than a
 * map keep counting free of boxing; only a requester's first denial allocates.
 */
final class DenialCounters {

  private int[] ids;
  private long[] reads;
  private long[] writes;
  private int count;

  DenialCounters() {
    this.ids = new int[4];
    this.reads = new long[4];
    this.writes = new long[4];
  }

  private DenialCounters(DenialCounters o) {
    this.ids = Arrays.copyOf(o.ids, Math.max(4, o.count));
    this.reads = Arrays.copyOf(o.reads, ids.length);
    this.writes = Arrays.copyOf(o.writes, ids.length);
    this.count = o.count;
  }

  /** An independent copy. */
  DenialCounters copy() {
    return new DenialCounters(this);
  }

  /** One more denied read ({@code write} false) or write of {@code requester}. */
  void count(int requester, boolean write) {
    int i = Arrays.binarySearch(ids, 0, count, requester);
    if (i < 0) {
      // First denial of this requester: the only allocation on the data path, once per requester.
      i = -i - 1;
      if (count == ids.length) {
        int n = count * 2;
        ids = Arrays.copyOf(ids, n);
        reads = Arrays.copyOf(reads, n);
        writes = Arrays.copyOf(writes, n);
      }
      System.arraycopy(ids, i, ids, i + 1, count - i);
      System.arraycopy(reads, i, reads, i + 1, count - i);
      System.arraycopy(writes, i, writes, i + 1, count - i);
      ids[i] = requester;
      reads[i] = 0;
      writes[i] = 0;
      count++;
    }
    if (write) {
      writes[i]++;
    } else {
      reads[i]++;
    }
  }

  long reads(int requester) {
    int i = Arrays.binarySearch(ids, 0, count, requester);
    return i < 0 ? 0 : reads[i];
  }

  long writes(int requester) {
    int i = Arrays.binarySearch(ids, 0, count, requester);
    return i < 0 ? 0 : writes[i];
  }

  /** Every denial, reads and writes, of every requester. */
  long total() {
    long n = 0;
    for (int i = 0; i < count; i++) {
      n += reads[i] + writes[i];
    }
    return n;
  }

  /** The counts of every requester denied at least once, by requester ID. */
  List<DenialCount> all() {
    List<DenialCount> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      out.add(new DenialCount(ids[i], reads[i], writes[i]));
    }
    return out;
  }
}
