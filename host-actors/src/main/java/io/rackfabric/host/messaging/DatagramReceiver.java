package io.rackfabric.host.messaging;

import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.fabric.time.ModelClock;
import java.util.ArrayDeque;
import java.util.Objects;

/**
 * The receiving end of one sender's queue pair: consumes the PostQ in sequence order, delivers each
 * datagram exactly once and in order, returns its buffer to the FreeQ and acknowledges by writing
 * its cumulative count into the ack word in the sender's memory.
 *
 * <p>It works on its own memory directly ({@link LocalMemory}) and touches the fabric only for the
 * ack write. It never skips a sequence number: if the PostQ entry for the next sequence number is
 * missing or stale, or the buffer does not hold that datagram intact, it waits; the sender's
 * retransmission rewrites them. Anything behind its head is a duplicate and is never looked at,
 * which is how duplicates are dropped by sequence number.
 */
public final class DatagramReceiver {

  /** Where delivered datagrams go, in order, once each. */
  public interface Delivery {
    void deliver(long sequence, byte[] payload);
  }

  private final QueueLayout layout;
  private final int sender;
  private final LocalMemory own;
  private final MemoryPort port;
  private final long ackAddress;
  private final ModelClock clock;
  private final long pollIntervalNs;
  private final Delivery delivery;

  private long postHead;
  private long freeTail;
  private boolean started;
  private boolean closed;
  private boolean returningBuffers = true;
  /** Buffers processed while returns are paused (a slow application holding them). */
  private final ArrayDeque<Long> held = new ArrayDeque<>();

  private long lastCorruptSequence = -1;
  private long corruptDatagrams;
  private long badEntries;
  private long acksWritten;

  /**
   * @param ackAddress the ack word in the sender's memory, reached through {@code port}
   * @param pollIntervalNs how often to look at the PostQ without a doorbell (a lost doorbell costs
   *     at most this much); 0 for no periodic poll, when the owner calls {@link #onDoorbell} for
   *     every doorbell or PostQ tail write it sees (the sender's retransmission always ends with
   *     both, so a lost one is covered by the next retransmission rather than by a poll)
   */
  public DatagramReceiver(QueueLayout layout, int sender, LocalMemory own, MemoryPort port,
      long ackAddress, ModelClock clock, long pollIntervalNs, Delivery delivery) {
    this.layout = Objects.requireNonNull(layout, "layout");
    layout.postTailAddress(sender); // checks the sender index
    if (pollIntervalNs < 0) {
      throw new IllegalArgumentException("pollIntervalNs " + pollIntervalNs + " is negative");
    }
    this.sender = sender;
    this.own = Objects.requireNonNull(own, "own");
    this.port = Objects.requireNonNull(port, "port");
    this.ackAddress = ackAddress;
    this.clock = Objects.requireNonNull(clock, "clock");
    this.pollIntervalNs = pollIntervalNs;
    this.delivery = Objects.requireNonNull(delivery, "delivery");
  }

  /**
   * Initialises the queue pair (empty PostQ, every buffer in the FreeQ) and starts polling. The
   * FreeQ tail is written last so a sender never sees an entry before it is there.
   */
  public void start() {
    if (started) {
      throw new IllegalStateException("receiver for sender " + sender + " already started");
    }
    started = true;
    own.writeLong(layout.postHeadAddress(sender), 0);
    for (int j = 0; j < layout.buffers(); j++) {
      own.write(layout.freeEntryAddress(sender, j), Words.ofLongs(layout.bufferAddress(sender, j), j));
    }
    freeTail = layout.buffers();
    own.writeLong(layout.freeTailAddress(sender), freeTail);
    if (pollIntervalNs > 0) {
      clock.schedule(pollIntervalNs, this::tick);
    }
  }

  /** Stops the periodic poll. */
  public void close() {
    closed = true;
  }

  /** The doorbell interrupt: look now, and re-acknowledge even if nothing is new (the ack may be lost). */
  public void onDoorbell() {
    poll(true);
  }

  /**
   * Whether processed buffers go back to the FreeQ at once. Off models an application that holds
   * its buffers; turning it back on returns everything held.
   */
  public void setReturningBuffers(boolean returning) {
    returningBuffers = returning;
    if (returning) {
      while (!held.isEmpty()) {
        returnBuffer(held.removeFirst());
      }
    }
  }

  private void tick() {
    if (closed) {
      return;
    }
    poll(false);
    clock.schedule(pollIntervalNs, this::tick);
  }

  /** Delivers every datagram that is ready, in order; returns how many. */
  public int poll(boolean acknowledgeAnyway) {
    if (!started) {
      throw new IllegalStateException("receiver for sender " + sender + " not started");
    }
    int delivered = 0;
    // The tail is a hint of how far to look; each entry's own sequence number is what counts.
    long tail = own.readLong(layout.postTailAddress(sender));
    while (postHead < tail) {
      byte[] entry = own.read(layout.postEntryAddress(sender, postHead), QueueLayout.ENTRY_SIZE);
      long bufferAddress = Words.getLong(entry, 0);
      if (Words.getLong(entry, 8) != postHead) {
        break; // the entry write was lost (or is last lap's): wait for the retransmission
      }
      if (layout.bufferIndexOf(sender, bufferAddress) < 0) {
        badEntries++; // never read or return a buffer that is not this sender's
        break;
      }
      byte[] payload = readDatagram(bufferAddress, postHead);
      if (payload == null) {
        break; // data lost, torn or not yet there: wait for the retransmission
      }
      long sequence = postHead;
      postHead++;
      own.writeLong(layout.postHeadAddress(sender), postHead);
      delivery.deliver(sequence, payload);
      delivered++;
      if (returningBuffers) {
        returnBuffer(bufferAddress);
      } else {
        held.addLast(bufferAddress);
      }
    }
    if (delivered > 0 || acknowledgeAnyway) {
      port.write(ackAddress, Words.ofLong(postHead));
      acksWritten++;
    }
    return delivered;
  }

  private byte[] readDatagram(long bufferAddress, long sequence) {
    byte[] header = own.read(bufferAddress, DatagramHeader.SIZE);
    if (DatagramHeader.sequenceOf(header) != sequence) {
      return null;
    }
    int length = Math.max(0, Math.min(Words.getInt(header, 8), layout.maxPayload()));
    byte[] payload = DatagramHeader.decode(own.read(bufferAddress, DatagramHeader.SIZE + length),
        sequence);
    if (payload == null && lastCorruptSequence != sequence) {
      lastCorruptSequence = sequence; // count each corrupt datagram once, not once per poll
      corruptDatagrams++;
    }
    return payload;
  }

  /** Entry first, then the tail: a sender that sees the tail sees the entry. */
  private void returnBuffer(long bufferAddress) {
    own.write(layout.freeEntryAddress(sender, freeTail), Words.ofLongs(bufferAddress, freeTail));
    freeTail++;
    own.writeLong(layout.freeTailAddress(sender), freeTail);
  }

  /** The next sequence number it will deliver (= how many it has delivered). */
  public long delivered() {
    return postHead;
  }

  /** Datagrams whose header named the right sequence number but whose checksum failed. */
  public long corruptDatagrams() {
    return corruptDatagrams;
  }

  public long badEntries() {
    return badEntries;
  }

  public long acksWritten() {
    return acksWritten;
  }

  public int heldBuffers() {
    return held.size();
  }

  @Override
  public String toString() {
    return "DatagramReceiver[sender " + sender + ", head " + postHead + ", freeTail " + freeTail
        + ", ack at " + Addresses.hex(ackAddress) + "]";
  }
}
