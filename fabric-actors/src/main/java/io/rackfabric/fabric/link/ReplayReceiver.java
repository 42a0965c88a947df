package io.rackfabric.fabric.link;

/**
 * The receiver's half of the data link layer's retry: the next expected sequence number, the
 * NAK_SCHEDULED flag, and coalesced Acks. Returns actions as bits, like {@link LinkStateMachine}.
 *
 * <p>A TLP with the expected number is accepted. One with an earlier number is a duplicate of a
 * replay: discarded, and acknowledged at once so the sender stops replaying it. One with a later
 * number means TLPs before it were lost: discarded and Nak'd, as is a TLP that failed its LCRC.
 * Only one Nak goes out until the expected TLP arrives (PCIe's NAK_SCHEDULED), because the sender
 * replays everything after the Nak'd number anyway. Acks are coalesced: one per {@code ackEvery}
 * accepted TLPs, and on the owner's tick for whatever is left.
 */
public final class ReplayReceiver {

  /** The TLP is the expected one: hand it on. */
  public static final int ACCEPT = 1;
  /** Send an Ack for {@link #ackSeq()}. */
  public static final int SEND_ACK = 2;
  /** Send a Nak for {@link #ackSeq()}. */
  public static final int SEND_NAK = 4;

  private final int ackEvery;
  private long nextExpected = 1;
  private boolean nakScheduled;
  private int unacked;

  public ReplayReceiver(int ackEvery) {
    if (ackEvery < 1) {
      throw new IllegalArgumentException("ackEvery=" + ackEvery + " must be at least 1");
    }
    this.ackEvery = ackEvery;
  }

  public long nextExpected() {
    return nextExpected;
  }

  public boolean nakScheduled() {
    return nakScheduled;
  }

  /** A TLP with a good LCRC and sequence number {@code seq}. */
  public int onTlp(long seq) {
    if (seq == nextExpected) {
      nextExpected++;
      nakScheduled = false;
      unacked++;
      return unacked >= ackEvery ? ACCEPT | SEND_ACK : ACCEPT;
    }
    if (seq < nextExpected) {
      return SEND_ACK;
    }
    return nak();
  }

  /** A TLP whose LCRC check failed: its sequence number cannot be trusted. */
  public int onBadLcrc() {
    return nak();
  }

  /** Whether TLPs were accepted since the last Ack. */
  public boolean owesAck() {
    return unacked > 0;
  }

  /** The owner's tick: acknowledges what was accepted since the last Ack. */
  public int tick() {
    return unacked > 0 ? SEND_ACK : 0;
  }

  /** The number an Ack or Nak carries now (the last TLP accepted in order); clears the count. */
  public long ackSeq() {
    unacked = 0;
    return nextExpected - 1;
  }

  /** The link went down or retrains: numbering starts over. */
  public void reset() {
    nextExpected = 1;
    nakScheduled = false;
    unacked = 0;
  }

  private int nak() {
    if (nakScheduled) {
      return 0;
    }
    nakScheduled = true;
    return SEND_NAK;
  }
}
