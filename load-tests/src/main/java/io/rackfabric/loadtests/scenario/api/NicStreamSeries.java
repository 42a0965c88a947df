package io.rackfabric.loadtests.scenario.api;

import io.rackfabric.fabric.stats.Latencies;
import io.rackfabric.host.nic.ArrivalStream;
import io.rackfabric.host.nic.StreamSummary;
import java.util.Arrays;
import org.HdrHistogram.Histogram;

/**
 * A NIC stream's arrivals over time, for plots, bounded in memory whatever the packet count: the
 * inter-arrival gaps (Ladon Fig. 6) in model time and in the receiver's wall clock, arrivals
 * per time bucket (throughput), and a histogram of the packets' one-way model latency.
 *
 * <p>The receiver builds it as frames arrive ({@link ArrivalStream}): beyond {@link #MAX_POINTS}
 * gaps, consecutive gaps are grouped and each group keeps its largest gap (with its time), so that
 * a single stall still shows: a plot of Fig. 6 is about the spikes.
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
  public static final int MAX_POINTS = ArrivalStream.MAX_POINTS;
  /** Buckets of a throughput series, at most. */
  public static final int BUCKETS = ArrivalStream.BUCKETS;

  /**
   * Times (ns since {@code origin}, the first arrival on its clock) and the gap before each, ns;
   * both of one length.
   */
  public record Gaps(long origin, long[] at, long[] gap) {

    static final Gaps NONE = new Gaps(0, new long[0], new long[0]);

    public int size() {
      return at.length;
    }
  }

  /**
   * Arrivals counted per bucket of {@code widthNs}: bucket i covers [i, i+1) x width from the
   * first arrival.
   */
  public record Buckets(long widthNs, long[] counts) {

    static final Buckets NONE = new Buckets(1, new long[0]);

    /** Arrivals per second in each bucket of its clock. */
    public double rate(int i) {
      return counts[i] * 1e9 / widthNs;
    }
  }

  /** The series of the receiver's summary of a stream. */
  static NicStreamSeries of(StreamSummary s) {
    return new NicStreamSeries(gaps(s.model()), gaps(s.wall()), buckets(s.model()), buckets(s.wall()),
        Latencies.decode(s.latencies()));
  }

  /** No arrivals. */
  static NicStreamSeries empty() {
    return of(new ArrivalStream(0).summary(0));
  }

  private static Gaps gaps(StreamSummary.Clock c) {
    return c.at().length == 0 ? Gaps.NONE : new Gaps(c.origin(), c.at(), c.gap());
  }

  /** A clock with fewer than two arrivals has no throughput to show. */
  private static Buckets buckets(StreamSummary.Clock c) {
    return Arrays.stream(c.buckets()).sum() < 2 ? Buckets.NONE : new Buckets(c.bucketWidthNs(), c.buckets());
  }
}
