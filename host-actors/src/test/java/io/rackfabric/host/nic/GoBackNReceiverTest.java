package io.rackfabric.host.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class GoBackNReceiverTest {

  record Reply(McpPacket.Kind kind, long seq) {}

  final List<Reply> replies = new ArrayList<>();

  GoBackNReceiver receiver(McpMode mode) {
    return new GoBackNReceiver(mode, (kind, data, seq) -> replies.add(new Reply(kind, seq)));
  }

  static McpPacket data(long seq) {
    return new McpPacket(McpPacket.Kind.DATA, "remote", 1, "nic", 0, seq, seq, 64, false, false);
  }

  static final StreamKey FTGM_KEY = data(0).streamAtReceiver(McpMode.FTGM);

  @Test
  void shouldAckOnlyAtTheCommitPointWhenUnderFtgm() {
    GoBackNReceiver r = receiver(McpMode.FTGM);
    assertTrue(r.isNext(data(0)));
    r.accepted(data(0));
    assertEquals(List.of(), replies, "not in its buffer yet");
    r.delivered(FTGM_KEY, data(0));
    assertEquals(List.of(new Reply(McpPacket.Kind.ACK, 0)), replies);
  }

  @Test
  void shouldAckOnReceiptAndLearnTheFirstNumberWhenUnderGm() {
    GoBackNReceiver r = receiver(McpMode.GM);
    assertTrue(r.isNext(data(5_000_000)));
    r.accepted(data(5_000_000));
    r.delivered(data(0).streamAtReceiver(McpMode.GM), data(5_000_000));
    assertEquals(List.of(new Reply(McpPacket.Kind.ACK, 5_000_000)), replies);
  }

  @Test
  void shouldNackAGapOnceWhenTheSenderResendsIntoIt() {
    GoBackNReceiver r = receiver(McpMode.FTGM);
    assertFalse(r.isNext(data(2)));
    assertFalse(r.isNext(data(3)));
    assertEquals(List.of(new Reply(McpPacket.Kind.NACK, 0)), replies);
    assertEquals(1, r.nacksSent());
    assertTrue(r.isNext(data(0)));
  }

  @Test
  void shouldAckWhatWasCommittedWhenADuplicateArrives() {
    GoBackNReceiver r = receiver(McpMode.FTGM);
    r.isNext(data(0));
    r.accepted(data(0));
    assertFalse(r.isNext(data(0)), "accepted, not yet committed");
    assertEquals(List.of(), replies);
    r.delivered(FTGM_KEY, data(0));
    assertFalse(r.isNext(data(0)));
    assertEquals(List.of(new Reply(McpPacket.Kind.ACK, 0), new Reply(McpPacket.Kind.ACK, 0)), replies);
    assertEquals(2, r.duplicates());
  }

  @Test
  void shouldExpectTheNumberAfterTheLastAckedWhenRestored() {
    GoBackNReceiver r = receiver(McpMode.FTGM);
    r.restore(FTGM_KEY, 7);
    assertFalse(r.isNext(data(7)));
    assertEquals(List.of(new Reply(McpPacket.Kind.ACK, 7)), replies, "7 was committed before the recovery");
    assertTrue(r.isNext(data(8)));
    r.clear();
    assertTrue(r.isNext(data(0)), "a cleared card starts its FTGM streams at 0");
  }
}
