package io.rackfabric.host.nic;

import java.util.ArrayList;
import java.util.Map;
import java.util.TreeMap;

/**
 * The receiving server's record of the stream (Fig. 6 of Ladon): per source VF an
 * {@link ArrivalStream}, which folds each frame into fixed-size statistics, and the counts over
 * all frames. Its memory grows with the number of VFs and with what arrived out of order, not with
 * the number of frames, so a stream may run as long as the rack does.
 */
public final class ArrivalLog {

  private final Map<Integer, ArrivalStream> streams = new TreeMap<>();
  private long frames;
  private long now;
  private long nonTest;

  /** Records one frame without a wall time; the receiver's clock moves to its arrival. */
  public ReceiverReport.Arrival record(EthernetFrame frame) {
    return record(frame, -1);
  }

  /** Records one frame taken at wall time {@code wallNanos}; the receiver's clock moves to its arrival. */
  public ReceiverReport.Arrival record(EthernetFrame frame, long wallNanos) {
    now = Math.max(now, frame.arrivesAt());
    frames++;
    UdpFrames.Parsed p = UdpFrames.parse(frame.data());
    ReceiverReport.Arrival a = new ReceiverReport.Arrival(frame.sourceVf(), p == null ? -1 : p.seq(),
        frame.data().length, p == null ? -1 : p.sentAt(), frame.arrivesAt(), wallNanos);
    if (p == null) {
      nonTest++;
    } else {
      streams.computeIfAbsent(frame.sourceVf(), ArrivalStream::new).arrived(a);
    }
    return a;
  }

  public long frames() {
    return frames;
  }

  public long now() {
    return now;
  }

  /** The counts over all frames and the VFs that sent test frames; each stream is {@link #stream}. */
  public ReceiverReport report(String receiver) {
    long duplicates = 0;
    long outOfOrder = 0;
    for (ArrivalStream s : streams.values()) {
      duplicates += s.duplicates();
      outOfOrder += s.outOfOrder();
    }
    return new ReceiverReport(receiver, now, frames, duplicates, outOfOrder, nonTest,
        new ArrayList<>(streams.keySet()));
  }

  /** VF {@code vf}'s stream so far, {@code due} packets numbered from 0 expected of it. */
  public StreamSummary stream(int vf, long due) {
    ArrivalStream s = streams.get(vf);
    return (s == null ? new ArrivalStream(vf) : s).summary(due);
  }
}
