package io.rackfabric.loadtests.scenario;

import java.util.Arrays;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * A NIC stream's arrivals over time, for plots, bounded in memory whatever the packet count: the
 * inter-arrival gaps (Ladon Fig. 6) in model time and in the receiver's wall clock, arrivals
 * per time bucket (throughput), and a histogram of the packets' one-way model latency.
 *
 * <p>Beyond {@link #MAX_POINTS} gaps, consecutive gaps are grouped and each group keeps its largest
 * gap (with its time), so that a single stall still shows: a plot of Fig. 6 is about the spikes.
 *
 * @param modelGaps model time of each arrival (ns, since the stream's first arrival) and the gap
 *     before it
 * @param wallGaps the same in the receiver's wall clock (ns since its first arrival); empty when
 *     the receiver kept no wall times
 * @param modelThroughput arrivals per model-time bucket
 * @param wallThroughput arrivals per wall-time bucket; empty without wall times
 * @param latency one-way model latency of every packet that carried its send time, ns
 */
public record NicStreamSeries(Gaps modelGaps, Gaps wallGaps, Buckets modelThroughput, Buckets wallThroughput,
    Histogram latency) {

  /** Gaps kept at most, per clock. */
  public static final int MAX_POINTS = 4000;
  /** Buckets of a throughput series. */
  public static final int BUCKETS = 100;

  /**
   * Times (ns since {@code origin}, the first arrival on its clock) and the gap before each, ns;
   * both of one length.
   */
  public record Gaps(long origin, long[] at, long[] gap) {

    static final Gaps NONE = new Gaps(0, new long[0], new long[0]);

    public int size() {
      return at.length;
    }

    /** Every gap, or for each group of consecutive gaps the largest, at most {@code max} kept. */
    static Gaps of(long origin, long[] at, long[] gap, int max) {
      int n = at.length;
      if (n <= max) {
        return new Gaps(origin, at, gap);
      }
      int group = (n + max - 1) / max;
      int kept = (n + group - 1) / group;
      long[] a = new long[kept];
      long[] g = new long[kept];
      for (int k = 0; k < kept; k++) {
        int best = k * group;
        for (int i = best + 1; i < Math.min(n, (k + 1) * group); i++) {
          if (gap[i] > gap[best]) {
            best = i;
          }
        }
        a[k] = at[best];
        g[k] = gap[best];
      }
      return new Gaps(origin, a, g);
    }
  }

  /**
   * Arrivals counted per bucket of {@code widthNs}: bucket i covers [i, i+1) x width from the
   * first arrival.
   */
  public record Buckets(long widthNs, long[] counts) {

    static final Buckets NONE = new Buckets(1, new long[0]);

    static Buckets of(long[] times, int buckets) {
      if (times.length < 2) {
        return NONE;
      }
      long first = Arrays.stream(times).min().orElseThrow();
      long last = Arrays.stream(times).max().orElseThrow();
      long width = Math.max(1, (last - first) / buckets + 1);
      long[] counts = new long[(int) ((last - first) / width) + 1];
      for (long t : times) {
        counts[(int) ((t - first) / width)]++;
      }
      return new Buckets(width, counts);
    }

    /** Arrivals per second in each bucket of its clock. */
    public double rate(int i) {
      return counts[i] * 1e9 / widthNs;
    }
  }

  /**
   * The series of arrivals given in arrival order: model arrival times, wall times (-1 where not
   * recorded) and one-way model latencies (-1 where unknown).
   */
  static NicStreamSeries of(List<Long> modelAt, List<Long> wallAt, List<Long> latencies) {
    Histogram latency = new Histogram(3_600_000_000_000L, 2);
    latencies.stream().filter(l -> l >= 0).forEach(latency::recordValue);
    return new NicStreamSeries(gaps(modelAt), gaps(wallAt), Buckets.of(times(modelAt), BUCKETS),
        Buckets.of(times(wallAt), BUCKETS), latency);
  }

  /** No arrivals. */
  static NicStreamSeries empty() {
    return of(List.of(), List.of(), List.of());
  }

  private static long[] times(List<Long> at) {
    return at.stream().filter(t -> t >= 0).mapToLong(Long::longValue).toArray();
  }

  private static Gaps gaps(List<Long> times) {
    long[] t = times(times);
    if (t.length < 2 || t.length != times.size()) {
      return Gaps.NONE; // a clock the receiver did not keep for every frame has no gap series
    }
    long[] at = new long[t.length - 1];
    long[] gap = new long[t.length - 1];
    for (int i = 1; i < t.length; i++) {
      at[i - 1] = t[i] - t[0];
      gap[i - 1] = t[i] - t[i - 1];
    }
    return Gaps.of(t[0], at, gap, MAX_POINTS);
  }
}
