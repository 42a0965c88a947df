package io.rackfabric.host.nic;

import io.rackfabric.fabric.stats.Latencies;
import java.util.Arrays;
import org.HdrHistogram.Histogram;

/**
 * One clock's view of one stream's arrivals (model time, or the receiver's wall clock), in memory
 * that does not grow with the packet count: the gaps between consecutive arrivals (exact minimum
 * and maximum, the exact median while the gaps take at most 1,024 values and a 2-digit histogram
 * for percentiles otherwise), a plot series of at most {@code maxPoints}
 * gaps and arrivals counted in at most {@code buckets} time buckets.
 *
 * <p>The plot series keeps every gap until it is full; then each two neighbouring points become
 * the one with the larger gap and every later point stands for twice as many gaps, so that a single
 * stall still shows however long the stream (the spikes are what a plot of Fig. 6 is about). The
 * buckets double their width when an arrival falls past the last one, merging pairs.
 */
final class ArrivalClock {

  private final int maxPoints;
  private final int buckets;
  private final Histogram gaps = new Histogram(2);
  /** Exact while the gaps take few values (a paced stream): a median of 1 ms stays 1 ms. */
  private final DistinctCounts distinctGaps = new DistinctCounts(1024);
  private long gapMin = Long.MAX_VALUE;
  private long gapMax = -1;
  private long origin = -1;
  private long previous = -1;
  /** False once a frame came without this clock's time: its gap series is then left out. */
  private boolean everyFrame = true;
  private long[] at = new long[16];
  private long[] gap = new long[16];
  private int points;
  private int group = 1;
  private int inGroup;
  private long groupAt;
  private long groupGap;
  private final long[] counts;
  private long width = 1;
  private long first = -1;

  ArrivalClock(int maxPoints, int buckets) {
    if (maxPoints < 2 || maxPoints % 2 != 0) {
      throw new IllegalArgumentException("maxPoints=" + maxPoints + " must be even and at least 2");
    }
    if (buckets < 1) {
      throw new IllegalArgumentException("buckets=" + buckets + " must be at least 1");
    }
    this.maxPoints = maxPoints;
    this.buckets = buckets;
    this.counts = new long[buckets];
  }

  /** A frame arrived at {@code t} on this clock, -1 when the clock was not read for it. */
  void arrived(long t) {
    if (t < 0) {
      everyFrame = false;
      previous = -1; // no gap across a frame without a time
      return;
    }
    count(t);
    if (origin < 0) {
      origin = t;
    }
    if (previous >= 0) {
      long g = t - previous;
      gapMin = Math.min(gapMin, g);
      gapMax = Math.max(gapMax, g);
      gaps.recordValue(Math.max(0, g));
      distinctGaps.record(g);
      plot(t - origin, g);
    }
    previous = t;
  }

  private void count(long t) {
    if (first < 0) {
      first = t;
    }
    long offset = Math.max(0, t - first);
    while (offset / width >= buckets) {
      for (int i = 0; i < buckets; i++) {
        counts[i] = 2 * i + 1 < buckets ? counts[2 * i] + counts[2 * i + 1] : 2 * i < buckets ? counts[2 * i] : 0;
      }
      width *= 2;
    }
    counts[(int) (offset / width)]++;
  }

  private void plot(long sinceOrigin, long g) {
    if (inGroup == 0 || g > groupGap) {
      groupAt = sinceOrigin;
      groupGap = g;
    }
    if (++inGroup < group) {
      return;
    }
    inGroup = 0;
    if (points == maxPoints) {
      for (int i = 0; i < maxPoints / 2; i++) {
        int k = gap[2 * i + 1] > gap[2 * i] ? 2 * i + 1 : 2 * i;
        at[i] = at[k];
        gap[i] = gap[k];
      }
      points = maxPoints / 2;
      // The group just closed is half of one of the new size: the next gaps complete it.
      inGroup = group;
      group *= 2;
      return;
    }
    if (points == at.length) {
      int size = Math.min(maxPoints, at.length * 2);
      at = Arrays.copyOf(at, size);
      gap = Arrays.copyOf(gap, size);
    }
    at[points] = groupAt;
    gap[points] = groupGap;
    points++;
  }

  /** What this clock saw so far, as sent over the wire. */
  StreamSummary.Clock summary() {
    long[] a;
    long[] g;
    if (!everyFrame || points + inGroup == 0) {
      a = new long[0];
      g = new long[0];
    } else {
      int n = points + (inGroup > 0 ? 1 : 0);
      a = Arrays.copyOf(at, n);
      g = Arrays.copyOf(gap, n);
      if (inGroup > 0) {
        a[n - 1] = groupAt;
        g[n - 1] = groupGap;
      }
    }
    int used = buckets;
    while (used > 0 && counts[used - 1] == 0) {
      used--;
    }
    boolean noGaps = gapMax < 0;
    return new StreamSummary.Clock(noGaps ? -1 : gapMin, gapMax, gaps.getTotalCount(), Latencies.encode(gaps),
        Math.max(0, origin), a, g, width, first < 0 ? new long[0] : Arrays.copyOf(counts, used),
        distinctGaps.valueAtPercentile(50));
  }
}
