package io.rackfabric.host.nic;

import io.rackfabric.fabric.endpoint.StreamTracker;
import io.rackfabric.fabric.stats.Latencies;
import org.HdrHistogram.Histogram;

/**
 * One VF's stream as the receiving server takes it, folded into fixed-size statistics as each
 * frame arrives: delivery (unique, duplicates, out of order) through a {@link StreamTracker}, whose
 * memory grows with what arrived out of order, not with what was sent; gaps and throughput per
 * clock ({@link ArrivalClock}); one-way latencies in a histogram. Nothing is kept per packet.
 */
public final class ArrivalStream {

  /** Gaps a plot series keeps at most, per clock. */
  public static final int MAX_POINTS = 4000;
  /** Throughput buckets per clock, at most. */
  public static final int BUCKETS = 100;

  private final int vf;
  private final StreamTracker tracker = new StreamTracker();
  private final ArrivalClock model = new ArrivalClock(MAX_POINTS, BUCKETS);
  private final ArrivalClock wall = new ArrivalClock(MAX_POINTS, BUCKETS);
  private final Histogram latencies = new Histogram(2);
  private long received;
  private long latencyMin = Long.MAX_VALUE;
  private long latencyMax = -1;

  public ArrivalStream(int vf) {
    this.vf = vf;
  }

  /** A test frame of this VF arrived (its sequence number is not negative). */
  public void arrived(ReceiverReport.Arrival a) {
    received++;
    tracker.arrived(0, a.seq());
    model.arrived(a.arrivedAt());
    wall.arrived(a.wallAt());
    long latency = a.latencyNs();
    if (latency >= 0) {
      latencies.recordValue(latency);
      latencyMin = Math.min(latencyMin, latency);
      latencyMax = Math.max(latencyMax, latency);
    }
  }

  public long received() {
    return received;
  }

  public long duplicates() {
    return tracker.duplicates();
  }

  public long outOfOrder() {
    return tracker.reordered();
  }

  /** The stream so far; {@code due}: how many packets (numbered from 0) its sender was to send. */
  public StreamSummary summary(long due) {
    return new StreamSummary(vf, received, tracker.unique(), tracker.uniqueBelow(0, due), tracker.duplicates(),
        tracker.reordered(), model.summary(), wall.summary(), latencyMax < 0 ? -1 : latencyMin, latencyMax,
        Latencies.encode(latencies));
  }
}
