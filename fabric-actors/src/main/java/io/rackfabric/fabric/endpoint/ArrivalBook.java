package io.rackfabric.fabric.endpoint;

import io.rackfabric.fabric.stats.Latencies;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;
import org.HdrHistogram.Histogram;

/**
 * What an endpoint received as a sink of posted writes: counts and bytes, each sender's numbered
 * stream ({@link StreamTracker}), the one-way model latency, the unique writes issued before a
 * time the run asked about, and who waits for a number of unique writes.
 *
 * <p>Not thread-safe: one owner (the endpoint's actor).
 */
final class ArrivalBook {

  private final StreamTracker streams = new StreamTracker();
  private final Histogram latency = Latencies.newHistogram();
  private final List<Waiter> waiters = new ArrayList<>();
  private long writes;
  private long bytes;
  private long minLatency = Long.MAX_VALUE;
  private long maxLatency;
  /** Unique writes issued before {@code issuedBefore} are counted in {@code uniqueIssuedBefore}. */
  private long issuedBefore = Long.MIN_VALUE;
  private long uniqueIssuedBefore;
  private long nextWaiter = Long.MAX_VALUE;

  /** Someone waiting until {@code uniqueWrites} unique writes arrived: told the count then. */
  private record Waiter(long uniqueWrites, LongConsumer reached) {}

  /**
   * A write of {@code length} bytes, issued at {@code originAt}, arrived at {@code arrival}.
   * {@code numbered}: it counts in the sender's stream ({@code requester}, {@code seq}); a write
   * into a watched mailbox belongs to host software's own protocol, which keeps its own books.
   */
  void arrived(int requester, long seq, long originAt, int length, long arrival, boolean numbered) {
    writes++;
    bytes += length;
    if (numbered && streams.arrived(requester, seq) && originAt < issuedBefore) {
      uniqueIssuedBefore++;
    }
    long oneWay = Math.max(1, arrival - originAt);
    latency.recordValue(oneWay);
    minLatency = Math.min(minLatency, oneWay);
    maxLatency = Math.max(maxLatency, oneWay);
    if (streams.unique() >= nextWaiter) {
      answerWaiters();
    }
  }

  /** From now on counts the unique writes issued before model time {@code modelAt}. */
  void countIssuedBefore(long modelAt) {
    issuedBefore = modelAt;
  }

  /** Calls {@code reached} once {@code uniqueWrites} unique writes have arrived (at once if they have). */
  void await(long uniqueWrites, LongConsumer reached) {
    waiters.add(new Waiter(uniqueWrites, reached));
    answerWaiters();
  }

  private void answerWaiters() {
    long unique = streams.unique();
    nextWaiter = Long.MAX_VALUE;
    for (var it = waiters.iterator(); it.hasNext(); ) {
      Waiter w = it.next();
      if (unique >= w.uniqueWrites()) {
        w.reached().accept(unique);
        it.remove();
      } else {
        nextWaiter = Math.min(nextWaiter, w.uniqueWrites());
      }
    }
  }

  long writes() {
    return writes;
  }

  long bytes() {
    return bytes;
  }

  StreamTracker streams() {
    return streams;
  }

  byte[] latencyHistogram() {
    return Latencies.encode(latency);
  }

  long minLatency() {
    return writes == 0 ? 0 : minLatency;
  }

  long maxLatency() {
    return maxLatency;
  }

  long uniqueIssuedBefore() {
    return uniqueIssuedBefore;
  }
}
