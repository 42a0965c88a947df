package io.rackfabric.fabric.link;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ReplayReceiverTest {

  private static final int ACCEPT = ReplayReceiver.ACCEPT;
  private static final int ACK = ReplayReceiver.SEND_ACK;
  private static final int NAK = ReplayReceiver.SEND_NAK;

  @Test
  void shouldAcceptInOrderAndAckOncePerAckEvery() {
    ReplayReceiver r = new ReplayReceiver(3);
    assertEquals(ACCEPT, r.onTlp(1));
    assertEquals(ACCEPT, r.onTlp(2));
    assertEquals(ACCEPT | ACK, r.onTlp(3));
    assertEquals(3, r.ackSeq());
    assertEquals(ACCEPT, r.onTlp(4));
    assertEquals(0, r.tick() & NAK);
    assertEquals(ACK, r.tick(), "the tick acknowledges what is left");
    assertEquals(4, r.ackSeq());
    assertEquals(0, r.tick(), "nothing owed");
  }

  @Test
  void shouldDiscardAndAckAtOnceWhenADuplicateArrives() {
    ReplayReceiver r = new ReplayReceiver(16);
    r.onTlp(1);
    r.onTlp(2);
    assertEquals(ACK, r.onTlp(1));
    assertEquals(2, r.ackSeq());
    assertEquals(3, r.nextExpected());
  }

  @Test
  void shouldNakOnceWhenTlpsFailLcrcUntilTheExpectedOneArrives() {
    ReplayReceiver r = new ReplayReceiver(16);
    r.onTlp(1);
    assertEquals(NAK, r.onBadLcrc());
    assertEquals(1, r.ackSeq(), "the Nak names the last good one");
    assertEquals(0, r.onBadLcrc(), "NAK_SCHEDULED: no second Nak");
    assertEquals(0, r.onTlp(3), "after the gap: discarded, already Nak'd");
    assertEquals(ACCEPT, r.onTlp(2), "the replay");
    assertEquals(NAK, r.onBadLcrc(), "a new error gets a Nak again");
  }

  @Test
  void shouldNakWhenASequenceNumberIsSkipped() {
    ReplayReceiver r = new ReplayReceiver(16);
    assertEquals(NAK, r.onTlp(2), "TLP 1 was lost");
    assertEquals(0, r.ackSeq());
    assertEquals(1, r.nextExpected());
  }

  @Test
  void shouldExpectOneAgainWhenReset() {
    ReplayReceiver r = new ReplayReceiver(16);
    r.onTlp(1);
    r.onBadLcrc();
    r.reset();
    assertEquals(ACCEPT, r.onTlp(1));
  }
}
