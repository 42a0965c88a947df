package io.rackfabric.loadtests.scenario;

import io.rackfabric.host.nic.ReceiverReport;
import io.rackfabric.host.nic.UdpSender;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One compute host's UDP stream through its VF, as the server outside the rack saw it. Every
 * figure comes from the sender's own count and the receiver's arrivals (model times the frames
 * carried through the fabric and the wire; wall times the receiver took them at).
 *
 * @param sent packets the sender sent
 * @param skipped packets the sender did not send because their slot fell while the data plane was
 *     down (a whole-system restart): lost to the stream
 * @param received test frames from this VF, duplicates included
 * @param lost packets due (sent + skipped) whose sequence number never arrived
 * @param modelGaps model time between consecutive arrivals of this stream: min, p50, max (ns;
 *     all -1 with fewer than two arrivals)
 * @param wallGaps the same in the receiver's wall clock (ns)
 * @param error the sender's refusal, empty when it ran
 * @param series the arrivals over time, bounded, for the HTML report's plots
 */
public record NicStreamResult(String host, int vf, long sent, long skipped, long received, long lost,
    long duplicates, long outOfOrder, Spread modelGaps, Spread wallGaps, String error, NicStreamSeries series) {

  /** Min, median and max of a set of gaps, ns; -1 each when there are none. */
  public record Spread(long min, long p50, long max) {

    static final Spread NONE = new Spread(-1, -1, -1);

    static Spread of(List<Long> values) {
      if (values.isEmpty()) {
        return NONE;
      }
      long[] v = values.stream().mapToLong(Long::longValue).toArray();
      Arrays.sort(v);
      return new Spread(v[0], v[(v.length - 1) / 2], v[v.length - 1]);
    }
  }

  /** The stream of VF {@code vf} from {@code arrivals} (every frame the receiver took, in order). */
  public static NicStreamResult of(String host, int vf, UdpSender.SendDone done, List<ReceiverReport.Arrival> arrivals) {
    long due = (long) done.sent() + done.skipped();
    Set<Long> seen = new HashSet<>();
    long received = 0;
    long duplicates = 0;
    long outOfOrder = 0;
    long highest = -1;
    List<Long> model = new ArrayList<>();
    List<Long> wall = new ArrayList<>();
    List<Long> modelAt = new ArrayList<>();
    List<Long> wallAt = new ArrayList<>();
    List<Long> latencies = new ArrayList<>();
    ReceiverReport.Arrival previous = null;
    for (ReceiverReport.Arrival a : arrivals) {
      if (a.sourceVf() != vf || a.seq() < 0) {
        continue;
      }
      received++;
      if (!seen.add(a.seq())) {
        duplicates++;
      }
      if (a.seq() < highest) {
        outOfOrder++;
      }
      highest = Math.max(highest, a.seq());
      modelAt.add(a.arrivedAt());
      wallAt.add(a.wallAt());
      latencies.add(a.latencyNs());
      if (previous != null) {
        model.add(a.arrivedAt() - previous.arrivedAt());
        if (a.wallAt() >= 0 && previous.wallAt() >= 0) {
          wall.add(a.wallAt() - previous.wallAt());
        }
      }
      previous = a;
    }
    long arrivedDue = seen.stream().filter(s -> s < due).count();
    return new NicStreamResult(host, vf, done.sent(), done.skipped(), received, due - arrivedDue, duplicates,
        outOfOrder, Spread.of(model), Spread.of(wall), done.error(), NicStreamSeries.of(modelAt, wallAt, latencies));
  }
}
