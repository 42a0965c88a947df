package io.rackfabric.host.nic;

import java.util.HashMap;
import java.util.Map;

/**
 * The receiving ends of the firmware's Go-Back-N streams: the number each stream expects next and
 * the last one committed. A packet behind that number is a duplicate, answered with an ACK of what
 * was committed; one ahead of it shows a gap, answered with one NACK per gap. GM learns a
 * stream's numbers from its first packet and acknowledges on receipt; FTGM streams start at 0 (or
 * where the host's copy says) and acknowledge only at the commit point, once the message is in
 * its host buffer (FTGM section 4.1).
 */
final class GoBackNReceiver {

  /** The ACKs and NACKs the receiver sends back, each answering data packet {@code data}. */
  interface Replies {
    void send(McpPacket.Kind kind, McpPacket data, long seq);
  }

  private static final class InStream {
    long expected;
    long committed;
    /** The expected number a NACK was sent for: one NACK per gap, or each resend burst would NACK again. */
    long nacked = Long.MIN_VALUE;

    InStream(long expected) {
      this.expected = expected;
      this.committed = expected - 1;
    }
  }

  private final McpMode mode;
  private final Replies replies;
  private final Map<StreamKey, InStream> in = new HashMap<>();
  private long duplicates;
  private long nacksSent;

  GoBackNReceiver(McpMode mode, Replies replies) {
    this.mode = mode;
    this.replies = replies;
  }

  /** FTGM recovery: the last sequence number the host saw acknowledged on a stream it receives. */
  void restore(StreamKey stream, long lastAcked) {
    in.put(stream, new InStream(lastAcked + 1));
  }

  /** Whether data packet {@code p} is the one its stream expects; a duplicate or a gap is answered here. */
  boolean isNext(McpPacket p) {
    InStream s = in.computeIfAbsent(p.streamAtReceiver(mode), k -> new InStream(mode == McpMode.GM ? p.seq() : 0));
    if (p.seq() < s.expected) {
      duplicates++;
      if (s.committed >= p.seq()) {
        replies.send(McpPacket.Kind.ACK, p, s.committed);
      }
      return false;
    }
    if (p.seq() > s.expected) {
      if (s.nacked != s.expected) {
        s.nacked = s.expected;
        nacksSent++;
        replies.send(McpPacket.Kind.NACK, p, s.expected);
      }
      return false;
    }
    return true;
  }

  /** The next packet {@code p} got a host buffer: its stream moves on, and GM acknowledges it now. */
  void accepted(McpPacket p) {
    InStream s = in.get(p.streamAtReceiver(mode));
    s.expected++;
    if (mode == McpMode.GM) {
      s.committed = p.seq();
      replies.send(McpPacket.Kind.ACK, p, p.seq());
    }
  }

  /** {@code p} is in its host buffer: under FTGM this is the commit point, and the ACK goes now. */
  void delivered(StreamKey stream, McpPacket p) {
    if (mode != McpMode.FTGM) {
      return;
    }
    InStream s = in.get(stream);
    if (s != null) {
      s.committed = Math.max(s.committed, p.seq());
    }
    replies.send(McpPacket.Kind.ACK, p, p.seq());
  }

  long duplicates() {
    return duplicates;
  }

  long nacksSent() {
    return nacksSent;
  }

  /** The card's memory was lost: every stream is learnt or restored anew. */
  void clear() {
    in.clear();
  }
}
