package io.rackfabric.host.nic;

import java.util.Map;
import java.util.TreeMap;

/**
 * Exact percentiles of a series with few distinct values (a paced stream's gaps: the interval, a
 * stall or two), in memory bounded by {@code limit} distinct values; past that it gives up and
 * the caller falls back to a histogram. Not thread-safe.
 */
final class DistinctCounts {

  private final int limit;
  private TreeMap<Long, Long> counts = new TreeMap<>();
  private long total;

  DistinctCounts(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit=" + limit + " must be at least 1");
    }
    this.limit = limit;
  }

  void record(long value) {
    if (counts == null) {
      return;
    }
    counts.merge(value, 1L, Long::sum);
    total++;
    if (counts.size() > limit) {
      counts = null; // too many distinct values to keep: no exact answer from now on
    }
  }

  /**
   * The least value that at least {@code percentile} percent of the values do not exceed, or -1
   * when there is none or more than {@code limit} distinct values came.
   */
  long valueAtPercentile(double percentile) {
    if (counts == null || total == 0) {
      return -1;
    }
    long rank = Math.max(1, (long) Math.ceil(percentile / 100.0 * total));
    long seen = 0;
    for (Map.Entry<Long, Long> e : counts.entrySet()) {
      seen += e.getValue();
      if (seen >= rank) {
        return e.getKey();
      }
    }
    return counts.lastKey();
  }
}
