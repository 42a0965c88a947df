package io.rackfabric.host.iommu;

import io.rackfabric.fabric.address.AddressRange;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The memory of one host as its IOMMU sees it: the ranges it was given, merged (sorted by base,
 * disjoint and not adjacent), and the 4 KiB pages lying entirely inside them, the only ones the
 * IOMMU may open. A range that starts or ends inside a page does not cover that page.
 */
final class HostMemory {

  private final List<AddressRange> ranges;
  /** The page numbers of the pages lying entirely inside each range; sorted, disjoint. */
  private final long[] firstPage;
  private final long[] lastPage;

  /** @param ranges at least one, non-null, in any order, touching or overlapping as they like */
  HostMemory(List<AddressRange> ranges) {
    this.ranges = Collections.unmodifiableList(merge(ranges));
    long[] first = new long[this.ranges.size()];
    long[] last = new long[this.ranges.size()];
    int spans = 0;
    for (AddressRange r : this.ranges) {
      long f = (r.base() & IommuTable.PAGE_MASK) == 0
          ? r.base() >>> IommuTable.PAGE_SHIFT
          : (r.base() >>> IommuTable.PAGE_SHIFT) + 1;
      long l = (r.limit() & IommuTable.PAGE_MASK) == IommuTable.PAGE_MASK
          ? r.limit() >>> IommuTable.PAGE_SHIFT
          : (r.limit() >>> IommuTable.PAGE_SHIFT) - 1;
      if (f <= l) {
        first[spans] = f;
        last[spans] = l;
        spans++;
      }
    }
    this.firstPage = Arrays.copyOf(first, spans);
    this.lastPage = Arrays.copyOf(last, spans);
  }

  /** Merged: sorted, disjoint, not adjacent; unmodifiable. */
  List<AddressRange> ranges() {
    return ranges;
  }

  /** The first page of {@code [first, last]} (page numbers) not entirely inside memory, or -1. */
  long firstPageOutside(long first, long last) {
    int i = Arrays.binarySearch(firstPage, first);
    if (i < 0) {
      i = -i - 2; // the span starting before first, if any
    }
    if (i < 0 || lastPage[i] < first) {
      return first;
    }
    // Spans are not adjacent (the ranges were merged), so a run of pages lies in one span or none.
    return last <= lastPage[i] ? -1 : lastPage[i] + 1;
  }

  /** Sorts by base (unsigned) and merges ranges that overlap or touch. */
  private static List<AddressRange> merge(List<AddressRange> ranges) {
    List<AddressRange> sorted = new ArrayList<>(ranges);
    sorted.sort((a, b) -> Long.compareUnsigned(a.base(), b.base()));
    List<AddressRange> out = new ArrayList<>();
    AddressRange cur = sorted.get(0);
    for (int k = 1; k < sorted.size(); k++) {
      AddressRange next = sorted.get(k);
      boolean touches = cur.limit() == -1L
          || Long.compareUnsigned(next.base(), cur.limit() + 1) <= 0;
      if (touches) {
        if (Long.compareUnsigned(next.limit(), cur.limit()) > 0) {
          cur = new AddressRange(cur.base(), next.limit());
        }
      } else {
        out.add(cur);
        cur = next;
      }
    }
    out.add(cur);
    return out;
  }

  /** The merged ranges, comma-separated, as messages and the table's one-line form show them. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    for (AddressRange r : ranges) {
      if (sb.length() > 0) {
        sb.append(", ");
      }
      sb.append(r);
    }
    return sb.toString();
  }
}
