package io.rackfabric.loadtests.scenario.api;

import io.rackfabric.fabric.stats.Latencies;
import io.rackfabric.host.nic.ArrivalStream;
import io.rackfabric.host.nic.ReceiverReport;
import io.rackfabric.host.nic.StreamSummary;
import io.rackfabric.host.nic.UdpSender;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * One compute host's UDP stream through its VF, as the server outside the rack saw it. Every
 * figure comes from the sender's own count and the receiver's summary of the stream (model times
 * the frames carried through the fabric and the wire; wall times the receiver took them at),
 * which it folds as the frames arrive ({@link ArrivalStream}): nothing per packet is kept or sent.
 *
 * @param sent packets the sender sent
 * @param skipped packets the sender did not send because their slot fell while the data plane was
 *     down (a whole-system restart): lost to the stream
 * @param received test frames from this VF, duplicates included
 * @param lost packets due (sent + skipped) whose sequence number never arrived
 * @param outOfOrder frames that arrived behind a higher sequence number, duplicates not counted
 * @param modelGaps model time between consecutive arrivals of this stream: min and max exact, p50
 *     from a 2-digit histogram (within 1%, and within [min, max]) (ns; all -1 with fewer than two
 *     arrivals)
 * @param wallGaps the same in the receiver's wall clock (ns)
 * @param error the sender's refusal, empty when it ran
 * @param series the arrivals over time, bounded, for the HTML report's plots
 */
public record NicStreamResult(String host, int vf, long sent, long skipped, long received, long lost,
    long duplicates, long outOfOrder, Spread modelGaps, Spread wallGaps, String error, NicStreamSeries series) {

  /** Min, median and max of a set of gaps, ns; -1 each when there are none. */
  public record Spread(long min, long p50, long max) {

    static final Spread NONE = new Spread(-1, -1, -1);

    static Spread of(StreamSummary.Clock clock) {
      if (clock.gapCount() == 0) {
        return NONE;
      }
      if (clock.exactP50() >= 0) {
        return new Spread(clock.gapMin(), clock.exactP50(), clock.gapMax());
      }
      Histogram h = Latencies.decode(clock.gaps());
      // The lower median, as of a sorted list: the value at half the count, rounded down.
      double percentile = 100.0 * ((clock.gapCount() + 1) / 2) / clock.gapCount();
      long p50 = Math.max(clock.gapMin(), Math.min(clock.gapMax(), h.getValueAtPercentile(percentile)));
      return new Spread(clock.gapMin(), p50, clock.gapMax());
    }
  }

  /** The stream of VF {@code vf} from the receiver's summary of it. */
  public static NicStreamResult of(String host, int vf, UdpSender.SendDone done, StreamSummary s) {
    long due = (long) done.sent() + done.skipped();
    return new NicStreamResult(host, vf, done.sent(), done.skipped(), s.received(), due - s.uniqueBelowDue(),
        s.duplicates(), s.outOfOrder(), Spread.of(s.model()), Spread.of(s.wall()), done.error(),
        NicStreamSeries.of(s));
  }

  /** The stream of VF {@code vf} from {@code arrivals} (frames in arrival order), folded as the receiver does. */
  public static NicStreamResult of(String host, int vf, UdpSender.SendDone done, List<ReceiverReport.Arrival> arrivals) {
    ArrivalStream stream = new ArrivalStream(vf);
    arrivals.stream().filter(a -> a.sourceVf() == vf && a.seq() >= 0).forEach(stream::arrived);
    return of(host, vf, done, stream.summary((long) done.sent() + done.skipped()));
  }
}
