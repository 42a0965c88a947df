package io.rackfabric.host.nic;

import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The sending ends of the firmware's Go-Back-N streams: each stream's packets sent and not yet
 * acknowledged, in order, with their send tokens. An ACK completes every packet up to its number;
 * a NACK, or no ACK for {@link McpTiming#resendTimeoutNs()}, sends every unacknowledged packet
 * from the one named on again. Under GM the card numbers a stream's packets itself; under FTGM
 * the host did (the token's number).
 */
final class GoBackNSender {

  /** GM numbers a reloaded card's connections from a new base, so old and new numbers differ. */
  static final long GM_EPOCH_STRIDE = 1_000_000;

  private record Pending(McpPacket packet, SendToken token) {}

  private static final class OutStream {
    final ArrayDeque<Pending> pending = new ArrayDeque<>();
    long nextSeq;
    /** GM: no ACK yet since the card was loaded; a NACK then tells where the receiver stands. */
    boolean fresh = true;
    long lastSentAt;
  }

  private final McpMode mode;
  private final Consumer<McpPacket> retransmit;
  private final Consumer<SendToken> completed;
  private final Map<StreamKey, OutStream> out = new LinkedHashMap<>();
  private long epoch = -1;
  private long resends;

  /**
   * @param resend puts a data packet onto the wire again
   * @param completed gets the token of a message the receiver has, for the host
   */
  GoBackNSender(McpMode mode, Consumer<McpPacket> resend, Consumer<SendToken> completed) {
    this.mode = mode;
    this.retransmit = resend;
    this.completed = completed;
  }

  /** The card was (re)loaded or restarted: GM streams opened from now on count from a new base. */
  void nextEpoch() {
    epoch++;
  }

  /** The data packet {@code node} sends for {@code token} at {@code now}, numbered on its stream. */
  McpPacket number(SendToken token, String node, long now) {
    OutStream s = out.computeIfAbsent(token.stream(mode), k -> newStream());
    long seq = mode == McpMode.FTGM ? token.seq() : s.nextSeq++;
    if (s.pending.isEmpty()) {
      s.lastSentAt = now;
    }
    return new McpPacket(McpPacket.Kind.DATA, node, token.port(), token.remoteNode(), token.remotePort(), seq,
        token.payload(), token.length(), false, false);
  }

  /** {@code packet}, numbered for {@code token}, is on the wire: it waits for its ACK. */
  void sent(McpPacket packet, SendToken token) {
    out.get(token.stream(mode)).pending.add(new Pending(packet, token));
  }

  /** An ACK for {@code seq} on {@code stream} came in at {@code now}. */
  void acked(StreamKey stream, long seq, long now) {
    OutStream s = out.get(stream);
    if (s == null) {
      return;
    }
    s.fresh = false;
    s.lastSentAt = now;
    while (!s.pending.isEmpty() && s.pending.peek().packet().seq() <= seq) {
      completed.accept(s.pending.poll().token());
    }
  }

  /** A NACK came in at {@code now}: the receiver on {@code stream} expects {@code expected}. */
  void nacked(StreamKey stream, long expected, long now) {
    OutStream s = out.get(stream);
    if (s == null || s.pending.isEmpty()) {
      return;
    }
    if (s.fresh) {
      // GM after a reload: the receiver says where the connection stands, and the card believes it
      ArrayDeque<Pending> renumbered = new ArrayDeque<>();
      long seq = expected;
      for (Pending q : s.pending) {
        renumbered.add(new Pending(q.packet().withSeq(seq++), q.token()));
      }
      s.pending.clear();
      s.pending.addAll(renumbered);
      s.nextSeq = seq;
      s.fresh = false;
    } else if (mode == McpMode.GM) {
      while (!s.pending.isEmpty() && s.pending.peek().packet().seq() < expected) {
        completed.accept(s.pending.poll().token()); // GM's receiver took them: they are delivered
      }
    }
    resend(s, expected, now);
  }

  /** L_timer at {@code now}: every stream without an ACK for {@code timeoutNs} sends all it has again. */
  void resendOverdue(long now, long timeoutNs) {
    for (OutStream s : out.values()) {
      if (!s.pending.isEmpty() && now - s.lastSentAt >= timeoutNs) {
        resend(s, Long.MIN_VALUE, now);
      }
    }
  }

  /** Sent and not yet acknowledged, over all streams. */
  int unacknowledged() {
    return out.values().stream().mapToInt(s -> s.pending.size()).sum();
  }

  long resends() {
    return resends;
  }

  /** The card's memory was lost: no stream, nothing pending. */
  void clear() {
    out.clear();
  }

  private OutStream newStream() {
    OutStream s = new OutStream();
    s.nextSeq = epoch * GM_EPOCH_STRIDE;
    s.fresh = mode == McpMode.GM;
    return s;
  }

  /** Go-Back-N: every unacknowledged packet from {@code from} on goes again, in order. */
  private void resend(OutStream s, long from, long now) {
    for (Pending q : s.pending) {
      if (q.packet().seq() >= from) {
        resends++;
        retransmit.accept(q.packet());
      }
    }
    s.lastSentAt = now;
  }
}
