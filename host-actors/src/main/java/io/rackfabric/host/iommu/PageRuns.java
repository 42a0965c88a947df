package io.rackfabric.host.iommu;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The open pages of one requester at one host, as sorted, disjoint runs of page numbers with a
 * permission each. Runs rather than one entry per page: opening a whole 32 GiB local subspace is
 * one run, not eight million map entries, and the coalesced form is canonical, so two tables with
 * the same open pages are equal field by field.
 *
 * <p>Invariants: {@code starts} ascending; {@code starts[i] <= ends[i] < starts[i+1]} (inclusive
 * page numbers); two adjacent runs ({@code ends[i] + 1 == starts[i+1]}) differ in permission.
 * Lookups are a binary search over primitive arrays and allocate nothing (the per-TLP path);
 * changes rebuild the arrays (the control plane, rare).
 */
final class PageRuns {

  private long[] starts;
  private long[] ends;
  private Permission[] perms;
  private int size;

  PageRuns() {
    this(new long[0], new long[0], new Permission[0], 0);
  }

  private PageRuns(long[] starts, long[] ends, Permission[] perms, int size) {
    this.starts = starts;
    this.ends = ends;
    this.perms = perms;
    this.size = size;
  }

  boolean isEmpty() {
    return size == 0;
  }

  /** The permission of {@code page}, or null when it is not open. */
  Permission at(long page) {
    int i = floor(page);
    return i >= 0 && ends[i] >= page ? perms[i] : null;
  }

  /** Whether every page of {@code [first, last]} is open with a permission allowing the access. */
  boolean allows(long first, long last, boolean write) {
    int i = floor(first);
    if (i < 0 || ends[i] < first) {
      return false;
    }
    while (true) {
      if (!perms[i].allows(write)) {
        return false;
      }
      if (ends[i] >= last) {
        return true;
      }
      i++;
      // The next run must continue without a gap; a differing permission is why it is separate.
      if (i == size || starts[i] != ends[i - 1] + 1) {
        return false;
      }
    }
  }

  /** The first page of {@code [first, last]} that is not open, or -1 when all are. */
  long firstNotOpen(long first, long last) {
    int i = floor(first);
    if (i < 0 || ends[i] < first) {
      return first;
    }
    while (ends[i] < last) {
      long next = ends[i] + 1;
      i++;
      if (i == size || starts[i] != next) {
        return next;
      }
    }
    return -1;
  }

  /**
   * How many pages of {@code [first, last]} are open with {@code p} ({@code [0]}) and with another
   * permission ({@code [1]}).
   */
  long[] overlap(long first, long last, Permission p) {
    long[] counts = new long[2];
    int i = floor(first);
    if (i < 0 || ends[i] < first) {
      i++; // the first run that could overlap starts after first
    }
    for (; i < size && starts[i] <= last; i++) {
      long n = Math.min(ends[i], last) - Math.max(starts[i], first) + 1;
      counts[perms[i] == p ? 0 : 1] += n;
    }
    return counts;
  }

  /** Opens {@code [first, last]} with {@code p}, replacing whatever permission those pages had. */
  void put(long first, long last, Permission p) {
    rebuild(first, last, p);
  }

  /** Closes {@code [first, last]}; pages in it that are not open are left alone. */
  void remove(long first, long last) {
    rebuild(first, last, null);
  }

  long pages() {
    long n = 0;
    for (int i = 0; i < size; i++) {
      n += ends[i] - starts[i] + 1;
    }
    return n;
  }

  List<PageRun> runs(int requester) {
    List<PageRun> out = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      out.add(new PageRun(requester, starts[i], ends[i] - starts[i] + 1, perms[i]));
    }
    return out;
  }

  PageRuns copy() {
    return new PageRuns(
        Arrays.copyOf(starts, size), Arrays.copyOf(ends, size), Arrays.copyOf(perms, size), size);
  }

  /** The index of the last run starting at or before {@code page}, or -1. */
  private int floor(long page) {
    int lo = 0;
    int hi = size - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (starts[mid] <= page) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return hi;
  }

  /**
   * Cuts {@code [first, last]} out of every run and, when {@code p} is not null, puts it back as
   * one run with {@code p}; neighbours with the same permission are merged on the way.
   */
  private void rebuild(long first, long last, Permission p) {
    Builder b = new Builder(size + 2);
    boolean placed = p == null;
    for (int i = 0; i < size; i++) {
      if (!placed && starts[i] > last) {
        b.append(first, last, p);
        placed = true;
      }
      if (ends[i] < first || starts[i] > last) {
        b.append(starts[i], ends[i], perms[i]);
        continue;
      }
      if (starts[i] < first) {
        b.append(starts[i], first - 1, perms[i]);
      }
      if (!placed) {
        b.append(first, last, p);
        placed = true;
      }
      if (ends[i] > last) {
        b.append(last + 1, ends[i], perms[i]);
      }
    }
    if (!placed) {
      b.append(first, last, p);
    }
    starts = b.starts;
    ends = b.ends;
    perms = b.perms;
    size = b.size;
  }

  private static final class Builder {
    final long[] starts;
    final long[] ends;
    final Permission[] perms;
    int size;

    Builder(int capacity) {
      starts = new long[capacity];
      ends = new long[capacity];
      perms = new Permission[capacity];
    }

    void append(long start, long end, Permission p) {
      if (size > 0 && ends[size - 1] + 1 == start && perms[size - 1] == p) {
        ends[size - 1] = end; // coalesce with the previous run
        return;
      }
      starts[size] = start;
      ends[size] = end;
      perms[size] = p;
      size++;
    }
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof PageRuns other) || other.size != size) {
      return false;
    }
    // Canonical form: the same open pages give the same runs, so comparing runs is enough.
    return Arrays.equals(starts, 0, size, other.starts, 0, other.size)
        && Arrays.equals(ends, 0, size, other.ends, 0, other.size)
        && Arrays.equals(perms, 0, size, other.perms, 0, other.size);
  }

  @Override
  public int hashCode() {
    int h = size;
    for (int i = 0; i < size; i++) {
      h = 31 * h + Long.hashCode(starts[i]);
      h = 31 * h + Long.hashCode(ends[i]);
      h = 31 * h + perms[i].ordinal(); // ordinal: stable across JVMs, unlike an enum's hash
    }
    return h;
  }
}
