package io.rackfabric.fabric.credit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.tlp.TlpClass;
import org.junit.jupiter.api.Test;

class ReceiveBufferTest {

  /** Header 32 (quarter 8), data 1024 (quarter 256) for every class. */
  private static final FcCredits BIG = new FcCredits(32, 1024, 32, 1024, 32, 1024);

  @Test
  void shouldAcceptUpToTheBufferSizeWhenNothingWasFreed() {
    ReceiveBuffer rb = new ReceiveBuffer(new FcCredits(2, 8, 1, 0, 1, 4));
    assertTrue(rb.arrive(TlpClass.POSTED, 4));
    assertTrue(rb.arrive(TlpClass.POSTED, 4));
    assertEquals(2, rb.occupiedHeaders(TlpClass.POSTED));
    assertTrue(rb.arrive(TlpClass.NON_POSTED, 0));
    assertTrue(rb.arrive(TlpClass.COMPLETION, 4));
  }

  @Test
  void shouldDetectOverrunWhenSenderExceedsAdvertisedHeaderCredits() {
    ReceiveBuffer rb = new ReceiveBuffer(new FcCredits(2, 100, 0, 0, 0, 0));
    assertTrue(rb.arrive(TlpClass.POSTED, 1));
    assertTrue(rb.arrive(TlpClass.POSTED, 1));
    assertFalse(rb.arrive(TlpClass.POSTED, 1));
    assertEquals(2, rb.occupiedHeaders(TlpClass.POSTED)); // the overrunning TLP is not counted
  }

  @Test
  void shouldDetectOverrunWhenSenderExceedsAdvertisedDataCredits() {
    ReceiveBuffer rb = new ReceiveBuffer(new FcCredits(10, 8, 0, 0, 0, 0));
    assertTrue(rb.arrive(TlpClass.POSTED, 5));
    assertFalse(rb.arrive(TlpClass.POSTED, 4));
    assertTrue(rb.arrive(TlpClass.POSTED, 3)); // the refused one took nothing
    assertFalse(rb.arrive(TlpClass.POSTED, 1));
    assertTrue(rb.arrive(TlpClass.POSTED, 0)); // headers are left, data is not
  }

  @Test
  void shouldKeepClassesApartWhenAccounting() {
    ReceiveBuffer rb = new ReceiveBuffer(new FcCredits(1, 4, 1, 0, 1, 4));
    assertTrue(rb.arrive(TlpClass.POSTED, 4));
    assertFalse(rb.arrive(TlpClass.POSTED, 0));
    assertTrue(rb.arrive(TlpClass.NON_POSTED, 0));
    assertTrue(rb.arrive(TlpClass.COMPLETION, 4));
    assertEquals(1, rb.occupiedHeaders(TlpClass.POSTED));
    assertEquals(1, rb.occupiedHeaders(TlpClass.NON_POSTED));
    assertEquals(1, rb.occupiedHeaders(TlpClass.COMPLETION));
  }

  @Test
  void shouldStillDetectOverrunWhenFreedCreditsWereNotYetAdvertised() {
    // The sender can only know what was advertised; room freed silently is not yet its to use.
    ReceiveBuffer rb = new ReceiveBuffer(new FcCredits(4, 1024, 0, 0, 0, 0));
    for (int i = 0; i < 4; i++) {
      assertTrue(rb.arrive(TlpClass.POSTED, 1));
    }
    assertFalse(rb.free(TlpClass.POSTED, 0, 1)); // below both thresholds (1 header, 256 data)
    assertFalse(rb.arrive(TlpClass.POSTED, 1));
    assertTrue(rb.free(TlpClass.POSTED, 1, 0)); // one header freed: a quarter of 4
    rb.advertise();
    assertTrue(rb.arrive(TlpClass.POSTED, 1));
    assertFalse(rb.arrive(TlpClass.POSTED, 1));
  }

  @Test
  void shouldAdvertiseSizePlusFreedWhenAdvertisingCumulativeLimits() {
    ReceiveBuffer rb = new ReceiveBuffer(new FcCredits(32, 1024, 16, 0, 8, 512));
    FcCredits first = rb.advertise();
    assertEquals(new FcCredits(32, 1024, 16, 0, 8, 512), first);
    rb.arrive(TlpClass.POSTED, 10);
    rb.arrive(TlpClass.POSTED, 6);
    rb.arrive(TlpClass.COMPLETION, 3);
    rb.free(TlpClass.POSTED, 2, 16);
    rb.free(TlpClass.COMPLETION, 1, 3);
    assertEquals(new FcCredits(34, 1040, 16, 0, 9, 515), rb.advertise());
    rb.arrive(TlpClass.POSTED, 1);
    rb.free(TlpClass.POSTED, 1, 1);
    // cumulative: never back to the size, never just the delta
    assertEquals(new FcCredits(35, 1041, 16, 0, 9, 515), rb.advertise());
  }

  @Test
  void shouldNotRequestUpdateWhenLessThanAQuarterWasFreed() {
    ReceiveBuffer rb = new ReceiveBuffer(BIG);
    for (int i = 0; i < 8; i++) {
      assertTrue(rb.arrive(TlpClass.POSTED, 1));
    }
    for (int i = 0; i < 7; i++) {
      assertFalse(rb.free(TlpClass.POSTED, 1, 1), "free #" + (i + 1));
    }
    assertTrue(rb.hasUnadvertised());
    assertTrue(rb.free(TlpClass.POSTED, 1, 1)); // 8 of 32 headers = a quarter
  }

  @Test
  void shouldRequestUpdateWhenAQuarterOfDataWasFreed() {
    ReceiveBuffer rb = new ReceiveBuffer(BIG);
    assertTrue(rb.arrive(TlpClass.COMPLETION, 255));
    assertTrue(rb.arrive(TlpClass.COMPLETION, 1));
    assertFalse(rb.free(TlpClass.COMPLETION, 1, 255)); // 255 of 1024 data, 1 of 32 headers
    assertTrue(rb.free(TlpClass.COMPLETION, 0, 1)); // 256 data credits: a quarter
    ReceiveBuffer rb2 = new ReceiveBuffer(BIG);
    assertTrue(rb2.arrive(TlpClass.COMPLETION, 256));
    assertTrue(rb2.free(TlpClass.COMPLETION, 1, 256)); // 256 of 1024 data = a quarter
  }

  @Test
  void shouldCountFromLastAdvertisementWhenApplyingThreshold() {
    ReceiveBuffer rb = new ReceiveBuffer(BIG);
    for (int i = 0; i < 16; i++) {
      rb.arrive(TlpClass.NON_POSTED, 0);
    }
    for (int i = 0; i < 7; i++) {
      rb.free(TlpClass.NON_POSTED, 1, 0);
    }
    rb.advertise(); // e.g. a keepalive re-advertised the 7
    assertFalse(rb.hasUnadvertised());
    for (int i = 0; i < 7; i++) {
      assertFalse(rb.free(TlpClass.NON_POSTED, 1, 0));
    }
    assertTrue(rb.free(TlpClass.NON_POSTED, 1, 0));
  }

  @Test
  void shouldUseThresholdOfOneWhenBufferIsSmallerThanFour() {
    ReceiveBuffer rb = new ReceiveBuffer(new FcCredits(3, 1024, 0, 0, 0, 0));
    rb.arrive(TlpClass.POSTED, 0);
    assertTrue(rb.free(TlpClass.POSTED, 1, 0));
  }

  @Test
  void shouldThresholdEachClassIndependentlyWhenFreeing() {
    ReceiveBuffer rb = new ReceiveBuffer(BIG);
    for (int i = 0; i < 7; i++) {
      rb.arrive(TlpClass.POSTED, 0);
      rb.arrive(TlpClass.NON_POSTED, 0);
    }
    for (int i = 0; i < 7; i++) {
      assertFalse(rb.free(TlpClass.POSTED, 1, 0));
      assertFalse(rb.free(TlpClass.NON_POSTED, 1, 0)); // 14 headers in all, but 7 per class
    }
  }

  @Test
  void shouldReportUnadvertisedOnlyWhenSomethingWasFreedSinceLastAdvertise() {
    ReceiveBuffer rb = new ReceiveBuffer(BIG);
    assertFalse(rb.hasUnadvertised());
    rb.arrive(TlpClass.COMPLETION, 2);
    assertFalse(rb.hasUnadvertised()); // arriving is not freeing
    rb.free(TlpClass.COMPLETION, 0, 1);
    assertTrue(rb.hasUnadvertised());
    rb.advertise();
    assertFalse(rb.hasUnadvertised());
  }

  @Test
  void shouldRejectWhenFreeingMoreThanReceived() {
    ReceiveBuffer rb = new ReceiveBuffer(BIG);
    rb.arrive(TlpClass.POSTED, 4);
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> rb.free(TlpClass.POSTED, 1, 5));
    assertTrue(e.getMessage().contains("POSTED"), e.getMessage());
    ReceiveBuffer rb2 = new ReceiveBuffer(BIG);
    assertThrows(IllegalStateException.class, () -> rb2.free(TlpClass.NON_POSTED, 1, 0));
  }

  @Test
  void shouldStartAfreshWhenReset() {
    ReceiveBuffer rb = new ReceiveBuffer(new FcCredits(1, 4, 0, 0, 0, 0));
    rb.arrive(TlpClass.POSTED, 4);
    rb.free(TlpClass.POSTED, 1, 4);
    rb.advertise();
    rb.reset();
    assertEquals(0, rb.occupiedHeaders(TlpClass.POSTED));
    assertFalse(rb.hasUnadvertised());
    assertEquals(new FcCredits(1, 4, 0, 0, 0, 0), rb.advertise()); // limits back to the sizes
    assertTrue(rb.arrive(TlpClass.POSTED, 4));
    assertFalse(rb.arrive(TlpClass.POSTED, 0));
  }

  @Test
  void shouldExposeConfiguredSizesWhenAsked() {
    FcCredits size = new FcCredits(1, 2, 3, 4, 5, 6);
    assertSame(size, new ReceiveBuffer(size).size());
  }

  @Test
  void shouldReturnCreditWhenSenderCouldOtherwiseNotFitTheLargestTlp() {
    // Data buffer of 300 credits, quarter = 75. A 50-credit write is freed (50 < 75): the sender
    // now has 250 credits and cannot send a 4096-byte (256-credit) write. The receiver holds
    // nothing, so it must return the 50 now or the sender waits for nothing.
    FcCredits size = new FcCredits(64, 300, 0, 0, 0, 0);
    ReceiveBuffer rb = new ReceiveBuffer(size);
    CreditLedger tx = new CreditLedger();
    tx.initialise(rb.advertise());
    tx.consume(TlpClass.POSTED, 50);
    assertTrue(rb.arrive(TlpClass.POSTED, 50));
    if (rb.free(TlpClass.POSTED, 1, 50)) {
      tx.update(rb.advertise());
    }
    assertEquals(0, rb.occupiedHeaders(TlpClass.POSTED));
    assertTrue(tx.canSend(TlpClass.POSTED, 256), "sender blocked while the receiver holds nothing");
  }

  @Test
  void shouldCapDataThresholdWhenAQuarterWouldStrandTheLargestTlp() {
    // 300 data credits: a quarter is 75, but a 256-credit TLP needs the UpdateFC once 45 are free.
    ReceiveBuffer rb = new ReceiveBuffer(new FcCredits(64, 300, 0, 0, 0, 0));
    rb.arrive(TlpClass.POSTED, 100);
    assertFalse(rb.free(TlpClass.POSTED, 0, 44));
    assertTrue(rb.free(TlpClass.POSTED, 0, 1));
  }

  @Test
  void shouldReturnEveryDataCreditWhenBufferIsNoLargerThanTheLargestTlp() {
    ReceiveBuffer rb = new ReceiveBuffer(new FcCredits(64, 100, 0, 0, 0, 0));
    rb.arrive(TlpClass.POSTED, 2);
    assertTrue(rb.free(TlpClass.POSTED, 0, 1));
  }
}
