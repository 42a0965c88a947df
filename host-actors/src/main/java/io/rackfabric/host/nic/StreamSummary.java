package io.rackfabric.host.nic;

import io.rackfabric.fabric.wire.WireMessage;

/**
 * What the receiving server saw of one VF's stream of test frames, in a size that does not grow
 * with the packet count (at most two series of {@link ArrivalStream#MAX_POINTS} points, about
 * 130 KB, below Artery's frame): the reply to {@code ExternalReceiver.GetStream}.
 *
 * @param vf the VF that sent the stream
 * @param received test frames from this VF, duplicates included
 * @param unique distinct sequence numbers received
 * @param uniqueBelowDue distinct sequence numbers below the {@code due} asked for: what of packets
 *     0 to due - 1 arrived
 * @param duplicates test frames whose sequence number had arrived before
 * @param outOfOrder test frames that arrived behind a higher sequence number of their VF and were
 *     not duplicates
 * @param model the arrivals in model time
 * @param wall the arrivals in the receiver's wall clock (nanoTime): only differences mean anything
 * @param latencyMin the smallest one-way model latency, -1 when no frame carried its send time
 * @param latencyMax the largest
 * @param latencies one-way model latencies, an encoded 2-digit HdrHistogram
 *     ({@code io.rackfabric.fabric.stats.Latencies#decode})
 */
public record StreamSummary(int vf, long received, long unique, long uniqueBelowDue, long duplicates,
    long outOfOrder, Clock model, Clock wall, long latencyMin, long latencyMax, byte[] latencies)
    implements WireMessage {

  /**
   * One clock's arrivals.
   *
   * @param gapMin smallest gap between consecutive arrivals, ns, -1 with fewer than two
   * @param gapMax largest gap, ns, -1 with fewer than two
   * @param gapCount gaps measured
   * @param gaps every gap, an encoded 2-digit HdrHistogram (for percentiles)
   * @param origin the first arrival on this clock, ns
   * @param at when each plotted gap ended, ns since {@code origin}
   * @param gap the plotted gaps, ns, one per {@code at}: every gap, or the largest of each group
   *     of consecutive gaps once there are too many; empty when a frame came without this clock
   * @param bucketWidthNs the width of each throughput bucket, ns
   * @param exactP50 the gaps' median, exact, or -1 when they took too many values to keep (then
   *     the histogram's)
   * @param buckets arrivals per bucket: bucket i covers [i, i + 1) x width from the first arrival
   */
  public record Clock(long gapMin, long gapMax, long gapCount, byte[] gaps, long origin, long[] at, long[] gap,
      long bucketWidthNs, long[] buckets, long exactP50) implements WireMessage {}
}
