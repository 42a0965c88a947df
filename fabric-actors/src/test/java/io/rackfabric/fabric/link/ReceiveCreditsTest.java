package io.rackfabric.fabric.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.credit.FcCredits;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.tlp.TlpClass;
import org.junit.jupiter.api.Test;

class ReceiveCreditsTest {

  /** Four posted headers: an UpdateFC is due once one is freed (a quarter of the buffer). */
  private static final FcCredits SMALL = new FcCredits(4, 64, 4, 0, 4, 64);

  private final ReceiveCredits credits = new ReceiveCredits(SMALL);

  private static MemWrite write(long seq) {
    return new MemWrite(Bdf.of(1, 0, 0), (int) seq, 0, 0x90000L, 16, null, 0, seq);
  }

  @Test
  void shouldRefuseATlpWhenThePartnerSendsBeyondTheAdvertisedCredits() {
    for (int i = 0; i < 4; i++) {
      assertTrue(credits.arrive(write(i)));
    }
    assertFalse(credits.arrive(write(4)));
  }

  @Test
  void shouldStampTheUpdateWithTheLatestFreeNotWithLaterTimesWhenSpaceIsFreed() {
    credits.arrive(write(1));
    assertTrue(credits.free(TlpClass.POSTED, 1, 1, 700, true));

    UpdateFc u = credits.update();
    assertEquals(700, u.sentAt());
    assertFalse(u.keepalive());
    assertEquals(5, u.limits().postedHeader(), "four advertised, one freed");
  }

  @Test
  void shouldReturnNoCreditWhenTheLinkIsNotUp() {
    credits.arrive(write(1));
    assertFalse(credits.free(TlpClass.POSTED, 1, 1, 700, false));
  }

  @Test
  void shouldRepeatTheLastAdvertisedLimitsWhenAKeepaliveIsSent() {
    credits.arrive(write(1));
    credits.free(TlpClass.POSTED, 1, 1, 700, true);
    FcCredits advertised = credits.update().limits();
    credits.arrive(write(2));
    credits.free(TlpClass.POSTED, 1, 1, 900, true);

    UpdateFc k = credits.keepalive();
    assertTrue(k.keepalive());
    assertEquals(advertised, k.limits(), "what was freed at 900 is not handed over by a keepalive");
  }

  @Test
  void shouldAbsorbFreesOfTlpsHeldWhenTheLinkWentDownAndReturnLaterOnes() {
    credits.arrive(write(1));
    credits.arrive(write(2));
    credits.linkDown();
    credits.reset(); // the new training

    assertFalse(credits.free(TlpClass.POSTED, 1, 1, 100, true), "held across the flap");
    assertFalse(credits.free(TlpClass.POSTED, 1, 1, 200, true), "held across the flap");
    credits.arrive(write(3));
    assertTrue(credits.free(TlpClass.POSTED, 1, 1, 300, true), "of the new training");
    UpdateFc u = credits.update();
    assertEquals(300, u.sentAt());
    assertEquals(5, u.limits().postedHeader(), "the new training's one header back, no more");
    assertEquals(65, u.limits().postedData());
  }
}
