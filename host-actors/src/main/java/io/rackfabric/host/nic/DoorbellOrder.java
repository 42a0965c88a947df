package io.rackfabric.host.nic;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Hands the NIC's firmware the register writes of several streams in model-time order rather than
 * in the order the JVMs happened to deliver them. Without it, a doorbell stamped 1.5 ms that
 * overtakes (in wall time) another VF's doorbell stamped 1.0 ms pulls the firmware's clock to
 * 1.5 ms first, and the other stream's packet leaves half a millisecond late: one stream's model
 * gaps would depend on the wall order of the others'.
 *
 * <p>Conservative, as in a Chandy-Misra simulation: each declared stream's next doorbell is known
 * not to come before its next slot ({@code startAt + (received + 1) * interval}: a sender may be
 * later, never earlier), so the earliest held write is released once no declared stream without a
 * held write could still send one before it. A declared stream stops constraining after its last
 * doorbell or when it {@linkplain #ended ended}. With no stream declared every write passes at
 * once. Writes of one sender arrive in their own model order (one path, FIFO), which the bound
 * relies on.
 *
 * <p>Only for a card whose endpoint runs free. Under the model-time kernel the endpoint hands the
 * card each write at its model time, after everything stamped earlier ({@link #passAll}): holding
 * a write there would serve it after later events (after a recovery, until the other stream's port
 * reopens), and what the card then sends would be stamped in its endpoint's past.
 *
 * <p>Not thread-safe: the NIC actor's own.
 *
 * @param <W> what is held: the NIC's register-write event
 */
final class DoorbellOrder<W> {

  private record Held<W>(long arrivedAt, long order, int vf, W write) {}

  private static final class Stream {
    final long startAt;
    final long intervalNs;
    final int count;
    int doorbells;
    int held;
    boolean ended;

    Stream(long startAt, long intervalNs, int count) {
      this.startAt = startAt;
      this.intervalNs = intervalNs;
      this.count = count;
    }

    boolean constrains() {
      return !ended && doorbells < count;
    }

    /** No doorbell of this stream arrives before this model time. */
    long nextDoorbellAt() {
      return startAt + (doorbells + 1L) * intervalNs;
    }
  }

  private final PriorityQueue<Held<W>> held = new PriorityQueue<>((a, b) -> a.arrivedAt != b.arrivedAt
      ? Long.compare(a.arrivedAt, b.arrivedAt) : Long.compare(a.order, b.order));
  private final Map<Integer, Stream> streams = new HashMap<>();
  private long arrivals;
  /** The writes arrive in model-time order already: nothing is held. */
  private boolean passAll;

  /**
   * VF {@code vf} will ring {@code count} doorbells, the first not before {@code startAt +
   * intervalNs}, each next one at least {@code intervalNs} later (a {@link SendPlan}).
   */
  void expect(int vf, long startAt, long intervalNs, int count) {
    if (intervalNs <= 0 || count < 0) {
      throw new IllegalArgumentException("stream of vf=" + vf + ": intervalNs=" + intervalNs + ", count=" + count
          + " must be positive");
    }
    streams.put(vf, new Stream(startAt, intervalNs, count));
  }

  /** VF {@code vf}'s stream rings no more doorbells (it finished or skipped its last slots). */
  List<W> ended(int vf) {
    Stream s = streams.get(vf);
    if (s != null) {
      s.ended = true;
    }
    return release();
  }

  /**
   * A register write arrived at model time {@code arrivedAt}: {@code vf} is the VF whose
   * registers it wrote (-1 for the PF), {@code doorbell} whether it rang the tail doorbell.
   * Returns the writes now safe to hand on, in model-time order (perhaps none, perhaps earlier
   * ones held before).
   */
  List<W> arrived(W write, int vf, boolean doorbell, long arrivedAt) {
    Stream s = streams.get(vf);
    if (s != null && doorbell) {
      s.doorbells++;
    }
    if (s != null) {
      s.held++;
    }
    held.add(new Held<>(arrivedAt, arrivals++, vf, write));
    return release();
  }

  /**
   * From now on the writes arrive in model-time order (the card's endpoint runs under the kernel):
   * each passes at once, whatever the declared streams. Returns the writes held so far, in
   * model-time order.
   */
  List<W> passAll() {
    passAll = true;
    return release();
  }

  /** Writes waiting for a slower stream. */
  int held() {
    return held.size();
  }

  private List<W> release() {
    List<W> out = new ArrayList<>();
    while (!held.isEmpty() && safe(held.peek())) {
      Held<W> h = held.poll();
      Stream s = streams.get(h.vf());
      if (s != null) {
        s.held--;
      }
      out.add(h.write());
    }
    return out;
  }

  /** No declared stream without a held write could still ring before {@code h} (the earliest held). */
  private boolean safe(Held<W> h) {
    if (passAll) {
      return true;
    }
    for (Map.Entry<Integer, Stream> e : streams.entrySet()) {
      Stream s = e.getValue();
      if (e.getKey() != h.vf() && s.held == 0 && s.constrains() && s.nextDoorbellAt() < h.arrivedAt()) {
        return false;
      }
    }
    return true;
  }
}
