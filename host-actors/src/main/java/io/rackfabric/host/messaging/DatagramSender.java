package io.rackfabric.host.messaging;

import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.fabric.time.ModelClock;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The sending end of one queue pair (Multi-peer, Figure 10), made reliable: take a free buffer from
 * the receiver's FreeQ (a read), write the datagram into it, write its PostQ entry and the PostQ
 * tail, ring the doorbell (four posted writes). Datagram {@code s} always goes into PostQ slot
 * {@code s mod N}, so the sequence number is the post count.
 *
 * <p>Datagrams stay here until acknowledged: by the ack word in this host's own memory, which the
 * receiver writes with its cumulative count, or implicitly when a buffer still holding an
 * unacknowledged datagram comes back through the FreeQ (the receiver returns a buffer only after
 * delivering it, and delivers in order). Unacknowledged datagrams are all resent, into the same
 * buffers and slots, after {@code timeoutNs} without an ack and at once on {@link #routeChanged()}.
 * Resending rewrites the same bytes, so it is idempotent, and a buffer already given back is only
 * written while it sits unused in the FreeQ.
 *
 * <p>The window is the buffers: a datagram is sent only into a buffer taken from the FreeQ, so at
 * most N are outstanding, which also keeps the PostQ from overflowing. A FreeQ read that finds
 * nothing free, or fails, is repeated after {@code readRetryNs}, doubling with each such read in a
 * row up to the timeout, and at once after a route change.
 */
public final class DatagramSender {

  /** Model-time settings. */
  public record Timing(long timeoutNs, long tickNs, long readRetryNs) {
    public Timing {
      if (timeoutNs <= 0 || tickNs <= 0 || readRetryNs <= 0) {
        throw new IllegalArgumentException("timing " + timeoutNs + "/" + tickNs + "/" + readRetryNs
            + " ns: every value must be positive");
      }
    }
  }

  private record Outstanding(long sequence, long bufferAddress, byte[] encoded) {}

  private final QueueLayout layout;
  private final int sender;
  private final MemoryPort port;
  private final LocalMemory own;
  private final long ackAddress;
  private final ModelClock clock;
  private final Timing timing;

  private final ArrayDeque<byte[]> pending = new ArrayDeque<>();
  private final ArrayDeque<Outstanding> unacked = new ArrayDeque<>();
  private final Map<Long, Outstanding> byBuffer = new HashMap<>();
  private final ArrayDeque<Long> freeBuffers = new ArrayDeque<>();

  private long nextSequence;
  private long acked;
  /** Private FreeQ head: only this sender takes from its FreeQ. */
  private long freeHead;
  private boolean refilling;
  private long readRetryNs;
  private boolean retryPending;
  private long retryGeneration;
  private boolean ticking;
  private long lastProgressNs;

  private long transmissions;
  private long retransmissions;
  private long timeouts;
  private long failedReads;
  private long badFreeEntries;
  private long lastBadFreeEntry = -1;

  /**
   * @param sender this sender's index in the receiver's {@code layout}
   * @param ackAddress the ack word in this host's own memory, which the receiver writes
   */
  public DatagramSender(QueueLayout layout, int sender, MemoryPort port, LocalMemory own,
      long ackAddress, ModelClock clock, Timing timing) {
    this.layout = Objects.requireNonNull(layout, "layout");
    layout.postTailAddress(sender); // checks the sender index
    this.sender = sender;
    this.port = Objects.requireNonNull(port, "port");
    this.own = Objects.requireNonNull(own, "own");
    this.ackAddress = ackAddress;
    this.clock = Objects.requireNonNull(clock, "clock");
    this.timing = Objects.requireNonNull(timing, "timing");
    this.readRetryNs = timing.readRetryNs();
    own.writeLong(ackAddress, 0);
  }

  /** Queues a datagram; it goes out as soon as a buffer is free. */
  public void send(byte[] payload) {
    Objects.requireNonNull(payload, "payload");
    if (payload.length > layout.maxPayload()) {
      throw new IllegalArgumentException("datagram of " + payload.length
          + " bytes exceeds the maximum payload of " + layout.maxPayload());
    }
    pending.addLast(payload.clone());
    pump();
    ensureTicking();
  }

  /**
   * Fail-over: the paths to the receiver changed, so whatever was in flight on the old ones may be
   * gone. Resend everything unacknowledged now rather than waiting for the timeout.
   */
  public void routeChanged() {
    checkAck();
    retransmitAll();
    // A FreeQ read waiting out its back-off was failing on the old path: read again at once.
    readRetryNs = timing.readRetryNs();
    if (retryPending) {
      retryPending = false;
      retryGeneration++;
      refilling = false;
    }
    pump();
    ensureTicking();
  }

  /** The receiver wrote the ack word (when the environment can tell; the tick polls it anyway). */
  public void onAckWritten() {
    checkAck();
    pump();
  }

  private void ensureTicking() {
    if (!ticking && (!pending.isEmpty() || !unacked.isEmpty())) {
      ticking = true;
      lastProgressNs = clock.now();
      clock.schedule(timing.tickNs(), this::tick);
    }
  }

  private void tick() {
    checkAck();
    if (!unacked.isEmpty() && clock.now() - lastProgressNs >= timing.timeoutNs()) {
      timeouts++;
      retransmitAll();
    }
    pump();
    if (pending.isEmpty() && unacked.isEmpty()) {
      ticking = false;
    } else {
      clock.schedule(timing.tickNs(), this::tick);
    }
  }

  private void checkAck() {
    long ack = own.readLong(ackAddress);
    if (ack > nextSequence) {
      return; // not an ack for anything sent: a stray write, ignore it
    }
    ackUpTo(ack);
  }

  private void ackUpTo(long count) {
    if (count <= acked) {
      return;
    }
    acked = count;
    lastProgressNs = clock.now();
    while (!unacked.isEmpty() && unacked.peekFirst().sequence() < count) {
      byBuffer.remove(unacked.removeFirst().bufferAddress());
    }
  }

  private void pump() {
    while (!pending.isEmpty() && !freeBuffers.isEmpty()) {
      long buffer = freeBuffers.removeFirst();
      Outstanding o = new Outstanding(nextSequence, buffer,
          DatagramHeader.encode(nextSequence, pending.removeFirst()));
      nextSequence++;
      if (unacked.isEmpty()) {
        lastProgressNs = clock.now(); // the timeout runs from the oldest outstanding datagram
      }
      unacked.addLast(o);
      byBuffer.put(buffer, o);
      transmit(o);
      transmissions++;
    }
    if (!pending.isEmpty() && freeBuffers.isEmpty()) {
      refill();
    }
  }

  /** Data, PostQ entry, PostQ tail, doorbell: in this order, and writes are not reordered. */
  private void transmit(Outstanding o) {
    port.write(o.bufferAddress(), o.encoded());
    port.write(layout.postEntryAddress(sender, o.sequence()),
        Words.ofLongs(o.bufferAddress(), o.sequence()));
    // Always the highest posted count, so tail writes never go backwards, resends included.
    port.write(layout.postTailAddress(sender), Words.ofLong(nextSequence));
    port.write(layout.doorbellAddress(sender), Words.ofLong(nextSequence));
  }

  private void retransmitAll() {
    for (Outstanding o : unacked) {
      transmit(o);
      retransmissions++;
    }
    lastProgressNs = clock.now();
  }

  /**
   * One read covers the FreeQ tail and the whole FreeQ ring (they are adjacent), so taking buffers
   * costs one round trip however many are free.
   */
  private void refill() {
    if (refilling) {
      return;
    }
    refilling = true;
    long from = layout.freeTailAddress(sender);
    long ringStart = layout.freeEntryAddress(sender, 0);
    int length = (int) (ringStart - from) + layout.buffers() * QueueLayout.ENTRY_SIZE;
    port.read(from, length, new MemoryPort.ReadCallback() {
      @Override
      public void completed(byte[] data) {
        takeFree(data, (int) (ringStart - from));
        if (freeBuffers.isEmpty()) {
          // Nothing free yet: look again later rather than spinning on the fabric.
          scheduleRetry();
        } else {
          readRetryNs = timing.readRetryNs();
          refilling = false;
          pump();
        }
      }

      @Override
      public void failed(String reason) {
        failedReads++;
        scheduleRetry();
      }
    });
  }

  /**
   * The wait before the next FreeQ read: readRetryNs after a read that found buffers, doubling
   * with every read in a row that found none or failed (a receiver that holds its buffers, a
   * path that is down), up to the retransmission timeout.
   */
  private void scheduleRetry() {
    long wait = readRetryNs;
    readRetryNs = Math.min(timing.timeoutNs(), readRetryNs * 2);
    retryPending = true;
    long generation = retryGeneration;
    clock.schedule(wait, () -> retryRefill(generation));
  }

  private void retryRefill(long generation) {
    if (generation != retryGeneration) {
      return; // superseded by a route change
    }
    retryPending = false;
    refilling = false;
    checkAck();
    pump();
  }

  private void takeFree(byte[] data, int ringOffset) {
    long tail = Words.getLong(data, 0);
    while (freeHead < tail) {
      int slot = (int) Math.floorMod(freeHead, (long) layout.buffers());
      int at = ringOffset + slot * QueueLayout.ENTRY_SIZE;
      long buffer = Words.getLong(data, at);
      if (Words.getLong(data, at + 8) != freeHead) {
        break; // not written yet when read (reads may split): take it next time
      }
      if (layout.bufferIndexOf(sender, buffer) < 0) {
        // Not one of this sender's buffers: never write there. Counted; the stream waits.
        badFreeEntries++;
        lastBadFreeEntry = buffer;
        break;
      }
      Outstanding holder = byBuffer.get(buffer);
      if (holder != null) {
        // Given back while we still hold it: the receiver delivered it, and everything before it.
        ackUpTo(holder.sequence() + 1);
      }
      freeBuffers.addLast(buffer);
      freeHead++;
    }
  }

  public long nextSequence() {
    return nextSequence;
  }

  public long acknowledged() {
    return acked;
  }

  public int outstanding() {
    return unacked.size();
  }

  public int pending() {
    return pending.size();
  }

  /** Buffers taken from the receiver's FreeQ and not yet used: the next sends go out at once. */
  public int buffersInHand() {
    return freeBuffers.size();
  }

  public long transmissions() {
    return transmissions;
  }

  public long retransmissions() {
    return retransmissions;
  }

  public long timeouts() {
    return timeouts;
  }

  public long failedReads() {
    return failedReads;
  }

  /** FreeQ entries that named an address outside this sender's buffers (never written to). */
  public long badFreeEntries() {
    return badFreeEntries;
  }

  @Override
  public String toString() {
    return "DatagramSender[sender " + sender + ", next " + nextSequence + ", acked " + acked
        + ", outstanding " + unacked.size() + ", pending " + pending.size()
        + (badFreeEntries == 0 ? "" : ", bad FreeQ entry " + Addresses.hex(lastBadFreeEntry))
        + "]";
  }
}
