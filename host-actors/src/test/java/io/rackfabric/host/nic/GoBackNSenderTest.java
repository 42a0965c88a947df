package io.rackfabric.host.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class GoBackNSenderTest {

  final List<McpPacket> resent = new ArrayList<>();
  final List<SendToken> completed = new ArrayList<>();

  GoBackNSender sender(McpMode mode) {
    GoBackNSender s = new GoBackNSender(mode, resent::add, completed::add);
    s.nextEpoch(); // loaded
    return s;
  }

  static SendToken token(long seq, long payload) {
    return new SendToken(0, "remote", 1, seq, payload, 64, 0x1000);
  }

  /** Numbers and sends {@code token} at {@code now}: what the firmware does once its DMA is done. */
  static McpPacket send(GoBackNSender s, SendToken token, long now) {
    McpPacket p = s.number(token, "nic", now);
    s.sent(p, token);
    return p;
  }

  static List<Long> seqs(List<McpPacket> packets) {
    return packets.stream().map(McpPacket::seq).toList();
  }

  @Test
  void shouldUseTheHostsNumbersAndCompleteInOrderWhenAnAckComesUnderFtgm() {
    GoBackNSender s = sender(McpMode.FTGM);
    for (long k = 0; k < 3; k++) {
      assertEquals(40 + k, send(s, token(40 + k, k), 0).seq());
    }
    assertEquals(3, s.unacknowledged());
    s.acked(StreamKey.of(McpMode.FTGM, "remote", 0, 1), 41, 10);
    assertEquals(List.of(token(40, 0), token(41, 1)), completed);
    assertEquals(1, s.unacknowledged());
    s.acked(StreamKey.of(McpMode.FTGM, "other", 0, 1), 99, 10); // not a stream it sends on
    assertEquals(1, s.unacknowledged());
  }

  @Test
  void shouldNumberFromANewBaseWhenGmIsReloaded() {
    GoBackNSender s = sender(McpMode.GM);
    assertEquals(0, send(s, token(-1, 0), 0).seq());
    assertEquals(1, send(s, token(-1, 1), 0).seq());
    s.clear();
    s.nextEpoch();
    assertEquals(GoBackNSender.GM_EPOCH_STRIDE, send(s, token(-1, 2), 0).seq());
  }

  @Test
  void shouldRenumberFromTheReceiversNumberWhenAFreshGmStreamIsNacked() {
    GoBackNSender s = sender(McpMode.GM);
    s.nextEpoch(); // a reloaded card: its numbers start at the stride
    send(s, token(-1, 0), 0);
    send(s, token(-1, 1), 0);
    StreamKey key = StreamKey.of(McpMode.GM, "remote", 0, 1);
    s.nacked(key, 17, 5);
    assertEquals(List.of(17L, 18L), seqs(resent));
    assertEquals(19, send(s, token(-1, 2), 6).seq());
    s.acked(key, 18, 7);
    assertEquals(2, completed.size());
  }

  @Test
  void shouldCompleteWhatTheReceiverHasAndResendTheRestWhenGmIsNacked() {
    GoBackNSender s = sender(McpMode.GM);
    StreamKey key = StreamKey.of(McpMode.GM, "remote", 0, 1);
    send(s, token(-1, 0), 0);
    s.acked(key, -1, 0); // the stream has heard from the receiver: no longer fresh
    for (long k = 1; k < 4; k++) {
      send(s, token(-1, k), 0);
    }
    s.nacked(key, 2, 5);
    assertEquals(List.of(token(-1, 0), token(-1, 1)), completed);
    assertEquals(List.of(2L, 3L), seqs(resent));
    assertEquals(2, s.resends());
  }

  @Test
  void shouldResendOnlyStreamsWithoutAnAckForTheTimeoutWhenLTimerRuns() {
    GoBackNSender s = sender(McpMode.FTGM);
    send(s, token(0, 0), 0);
    send(s, new SendToken(1, "remote", 1, 0, 9, 64, 0x2000), 400);
    s.resendOverdue(999, 1_000);
    assertEquals(List.of(), resent);
    s.resendOverdue(1_000, 1_000);
    assertEquals(1, resent.size());
    assertEquals(0, resent.get(0).fromPort());
    s.resendOverdue(1_400, 1_000);
    assertEquals(2, resent.size(), "the other stream's turn; the first was just resent");
    assertEquals(1, resent.get(1).fromPort());
  }
}
