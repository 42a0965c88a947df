package io.rackfabric.fabric.link;

import java.util.Arrays;

/**
 * When a link's transmitter is busy, in model time: the reserved intervals of the wire.
 *
 * <p>TLPs reach an egress in wall order, which is not always model order: host software's write
 * stamped at 45us can be offered before a generator's write stamped at 31us, because actors run
 * concurrently. A single "busy until" would make the 31us write wait until 45us, and everything
 * it then carries downstream (port clocks, fault detection) would be late by that artefact. Here
 * an earlier-stamped TLP takes the first gap in the wire's schedule at or after its ready time
 * that fits it, which is where it would have gone had the two arrived in model order.
 *
 * <p>The calendar keeps the latest {@code keep} to twice as many intervals (adjacent ones merge,
 * so a busy stream is one interval); when it overflows, the oldest are forgotten at once (one copy
 * per {@code keep} appends, not one per TLP) and the wire counts as busy up to their end
 * ({@link #floor()}), so memory stays bounded and nothing can start inside a forgotten
 * reservation. {@code keep} starts at {@link #CAPACITY} and doubles, up to {@link #MAX_CAPACITY},
 * while what would be forgotten is less than {@link #WINDOW_NS} of model time behind the latest
 * reservation: a generator booking sparse TLPs far ahead must not push a late, earlier-stamped
 * TLP (a host's acknowledgement, say) to the floor, tens of microseconds after its own time.
 */
public final class WireCalendar {

  static final int CAPACITY = 64;
  static final int MAX_CAPACITY = 4096;
  /** Reservations this far (model ns) behind the latest one may be forgotten. */
  static final long WINDOW_NS = 1_000_000;

  private int keep = CAPACITY;
  private long[] starts = new long[2 * CAPACITY + 1];
  private long[] ends = new long[2 * CAPACITY + 1];
  private int count;
  private long floor = Long.MIN_VALUE;

  /**
   * Reserves {@code durationNs} of wire at the earliest time at or after {@code earliest} that is
   * free for that long, and returns that start.
   */
  public long reserve(long earliest, long durationNs) {
    if (durationNs < 0) {
      throw new IllegalArgumentException("durationNs=" + durationNs + " < 0");
    }
    long start = earliestStart(earliest, durationNs);
    if (count == 0 || start >= ends[count - 1]) {
      append(start, start + durationNs); // the common case: stamps in order, O(1)
    } else {
      insert(firstEndingAfter(start), start, start + durationNs); // start lies in a gap
    }
    return start;
  }

  /** Where a request that needs {@code durationNs} from {@code earliest} fits, without reserving it. */
  private long earliestStart(long earliest, long durationNs) {
    long start = Math.max(earliest, floor);
    if (count == 0 || start >= ends[count - 1]) {
      return start;
    }
    for (int i = firstEndingAfter(start); i < count && start + durationNs > starts[i]; i++) {
      start = Math.max(start, ends[i]);
    }
    return start;
  }

  /** The end of the latest reservation: when the wire is free for good. */
  public long busyUntil() {
    return count == 0 ? floor : ends[count - 1];
  }

  /** Before this, the wire counts as busy (forgotten reservations). */
  public long floor() {
    return floor;
  }

  int intervals() {
    return count;
  }

  private void append(long start, long end) {
    if (count > 0 && start == ends[count - 1]) {
      ends[count - 1] = end;
      return;
    }
    starts[count] = start;
    ends[count] = end;
    count++;
    trim();
  }

  private void insert(int i, long start, long end) {
    boolean joinsPrevious = i > 0 && ends[i - 1] == start;
    boolean joinsNext = i < count && starts[i] == end;
    if (joinsPrevious && joinsNext) {
      ends[i - 1] = ends[i];
      System.arraycopy(starts, i + 1, starts, i, count - i - 1);
      System.arraycopy(ends, i + 1, ends, i, count - i - 1);
      count--;
    } else if (joinsPrevious) {
      ends[i - 1] = end;
    } else if (joinsNext) {
      starts[i] = start;
    } else {
      System.arraycopy(starts, i, starts, i + 1, count - i);
      System.arraycopy(ends, i, ends, i + 1, count - i);
      starts[i] = start;
      ends[i] = end;
      count++;
      trim();
    }
  }

  /**
   * When over twice {@code keep} intervals: keeps twice as many if what would be forgotten is
   * recent (within {@link #WINDOW_NS} of the latest end) and the cap allows, else forgets all but
   * the latest {@code keep}.
   */
  private void trim() {
    if (count <= 2 * keep) {
      return;
    }
    int drop = count - keep;
    if (ends[count - 1] - ends[drop - 1] < WINDOW_NS && keep < MAX_CAPACITY) {
      keep *= 2;
      starts = Arrays.copyOf(starts, 2 * keep + 1);
      ends = Arrays.copyOf(ends, 2 * keep + 1);
      return;
    }
    floor = Math.max(floor, ends[drop - 1]);
    System.arraycopy(starts, drop, starts, 0, keep);
    System.arraycopy(ends, drop, ends, 0, keep);
    count = keep;
  }

  /** The index of the first interval that ends after {@code t} (binary search; ends ascend). */
  private int firstEndingAfter(long t) {
    int lo = 0;
    int hi = count;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (ends[mid] > t) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }
}
