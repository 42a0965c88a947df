package io.rackfabric.host.nic;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The receiving server's record of the stream: every frame's model arrival time, size and source
 * VF, duplicates and reordering per VF, and the inter-arrival times (Fig. 6 of Ladon).
 */
public final class ArrivalLog {

  private final List<ReceiverReport.Arrival> arrivals = new ArrayList<>();
  private final List<Long> interArrivals = new ArrayList<>();
  private final Map<Integer, Set<Long>> seen = new HashMap<>();
  private final Map<Integer, Long> highest = new HashMap<>();
  private long now;
  private long duplicates;
  private long outOfOrder;
  private long nonTest;

  /** Records one frame without a wall time; the receiver's clock moves to its arrival. */
  public ReceiverReport.Arrival record(EthernetFrame frame) {
    return record(frame, -1);
  }

  /** Records one frame taken at wall time {@code wallNanos}; the receiver's clock moves to its arrival. */
  public ReceiverReport.Arrival record(EthernetFrame frame, long wallNanos) {
    now = Math.max(now, frame.arrivesAt());
    UdpFrames.Parsed p = UdpFrames.parse(frame.data());
    ReceiverReport.Arrival a = new ReceiverReport.Arrival(frame.sourceVf(), p == null ? -1 : p.seq(),
        frame.data().length, p == null ? -1 : p.sentAt(), frame.arrivesAt(), wallNanos);
    if (p == null) {
      nonTest++;
    } else {
      if (!seen.computeIfAbsent(frame.sourceVf(), vf -> new HashSet<>()).add(p.seq())) {
        duplicates++;
      }
      Long top = highest.get(frame.sourceVf());
      if (top != null && p.seq() < top) {
        outOfOrder++;
      } else {
        highest.put(frame.sourceVf(), p.seq());
      }
    }
    if (!arrivals.isEmpty()) {
      interArrivals.add(frame.arrivesAt() - arrivals.get(arrivals.size() - 1).arrivedAt());
    }
    arrivals.add(a);
    return a;
  }

  public long frames() {
    return arrivals.size();
  }

  public long now() {
    return now;
  }

  public ReceiverReport report(String receiver) {
    return new ReceiverReport(receiver, now, arrivals.size(), duplicates, outOfOrder, nonTest, arrivals,
        interArrivals);
  }
}
