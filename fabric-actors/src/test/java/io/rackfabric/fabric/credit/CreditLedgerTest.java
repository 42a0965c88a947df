package io.rackfabric.fabric.credit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.tlp.TlpClass;
import org.junit.jupiter.api.Test;

class CreditLedgerTest {

  private static CreditLedger ledger(FcCredits limits) {
    CreditLedger l = new CreditLedger();
    l.initialise(limits);
    return l;
  }

  @Test
  void shouldRefuseEverythingWhenNotInitialised() {
    CreditLedger l = new CreditLedger();
    assertFalse(l.initialised());
    for (TlpClass c : TlpClass.ALL) {
      assertFalse(l.canSend(c, 0));
    }
    assertThrows(IllegalStateException.class, () -> l.consume(TlpClass.POSTED, 0));
  }

  @Test
  void shouldTakeEachClassLimitsSeparatelyWhenInitialised() {
    CreditLedger l = ledger(new FcCredits(1, 2, 3, 4, 5, 6));
    assertTrue(l.initialised());
    assertEquals(1, l.availableHeader(TlpClass.POSTED));
    assertEquals(2, l.availableData(TlpClass.POSTED));
    assertEquals(3, l.availableHeader(TlpClass.NON_POSTED));
    assertEquals(4, l.availableData(TlpClass.NON_POSTED));
    assertEquals(5, l.availableHeader(TlpClass.COMPLETION));
    assertEquals(6, l.availableData(TlpClass.COMPLETION));
  }

  @Test
  void shouldConsumeOneHeaderAndTheDataCreditsWhenTlpIsSent() {
    CreditLedger l = ledger(new FcCredits(4, 64, 4, 0, 4, 64));
    l.consume(TlpClass.POSTED, 16);
    assertEquals(3, l.availableHeader(TlpClass.POSTED));
    assertEquals(48, l.availableData(TlpClass.POSTED));
    // other classes untouched
    assertEquals(4, l.availableHeader(TlpClass.COMPLETION));
    assertEquals(64, l.availableData(TlpClass.COMPLETION));
    assertEquals(4, l.availableHeader(TlpClass.NON_POSTED));
  }

  @Test
  void shouldRefuseWhenHeaderCreditsAreExhaustedEvenWithDataLeft() {
    CreditLedger l = ledger(new FcCredits(2, 1000, 0, 0, 0, 0));
    l.consume(TlpClass.POSTED, 1);
    l.consume(TlpClass.POSTED, 1);
    assertFalse(l.canSend(TlpClass.POSTED, 1));
    assertFalse(l.canSend(TlpClass.POSTED, 0));
    assertEquals(998, l.availableData(TlpClass.POSTED));
    assertThrows(IllegalStateException.class, () -> l.consume(TlpClass.POSTED, 1));
    assertEquals(0, l.availableHeader(TlpClass.POSTED)); // a refused consume changes nothing
  }

  @Test
  void shouldRefuseWhenDataCreditsWouldBeExceededEvenWithHeadersLeft() {
    CreditLedger l = ledger(new FcCredits(10, 20, 0, 0, 0, 0));
    assertTrue(l.canSend(TlpClass.POSTED, 20));
    assertFalse(l.canSend(TlpClass.POSTED, 21));
    l.consume(TlpClass.POSTED, 15);
    assertTrue(l.canSend(TlpClass.POSTED, 5));
    assertFalse(l.canSend(TlpClass.POSTED, 6));
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> l.consume(TlpClass.POSTED, 6));
    assertTrue(e.getMessage().contains("POSTED"), e.getMessage());
    assertEquals(5, l.availableData(TlpClass.POSTED));
    assertEquals(9, l.availableHeader(TlpClass.POSTED));
  }

  @Test
  void shouldAllowHeaderOnlyTlpWhenNoDataCreditsAdvertised() {
    CreditLedger l = ledger(new FcCredits(0, 0, 2, 0, 0, 0));
    assertTrue(l.canSend(TlpClass.NON_POSTED, 0)); // a read needs no data credits
    assertFalse(l.canSend(TlpClass.NON_POSTED, 1)); // a config write needs one
  }

  @Test
  void shouldReleaseCreditWhenCumulativeLimitGrows() {
    CreditLedger l = ledger(new FcCredits(1, 4, 0, 0, 0, 0));
    l.consume(TlpClass.POSTED, 4);
    assertFalse(l.canSend(TlpClass.POSTED, 4));
    l.update(new FcCredits(2, 8, 0, 0, 0, 0)); // partner freed one TLP of 4 credits
    assertTrue(l.canSend(TlpClass.POSTED, 4));
    assertEquals(1, l.availableHeader(TlpClass.POSTED));
    assertEquals(4, l.availableData(TlpClass.POSTED));
  }

  @Test
  void shouldIgnoreStaleSmallerUpdateWhenLimitsAreCumulative() {
    CreditLedger l = ledger(new FcCredits(2, 8, 2, 0, 2, 8));
    l.update(new FcCredits(5, 20, 3, 0, 2, 8)); // newer
    l.update(new FcCredits(3, 12, 2, 0, 2, 8)); // older, arriving late
    assertEquals(5, l.availableHeader(TlpClass.POSTED));
    assertEquals(20, l.availableData(TlpClass.POSTED));
    assertEquals(3, l.availableHeader(TlpClass.NON_POSTED));
    // Per field: a stale update that is smaller in one class but not another only raises the other.
    l.update(new FcCredits(4, 30, 1, 0, 2, 8));
    assertEquals(5, l.availableHeader(TlpClass.POSTED));
    assertEquals(30, l.availableData(TlpClass.POSTED));
    assertEquals(3, l.availableHeader(TlpClass.NON_POSTED));
  }

  @Test
  void shouldHealLostUpdateWhenNextUpdateArrives() {
    CreditLedger l = ledger(new FcCredits(1, 0, 0, 0, 0, 0));
    l.consume(TlpClass.POSTED, 0);
    assertFalse(l.canSend(TlpClass.POSTED, 0));
    // The UpdateFC saying limit=2 is lost; the partner frees another TLP and says limit=3.
    l.update(new FcCredits(3, 0, 0, 0, 0, 0));
    assertEquals(2, l.availableHeader(TlpClass.POSTED));
    l.consume(TlpClass.POSTED, 0);
    l.consume(TlpClass.POSTED, 0);
    assertFalse(l.canSend(TlpClass.POSTED, 0));
  }

  @Test
  void shouldForgetEverythingWhenReset() {
    CreditLedger l = ledger(new FcCredits(4, 64, 4, 64, 4, 64));
    l.consume(TlpClass.COMPLETION, 8);
    l.reset();
    assertFalse(l.initialised());
    assertEquals(0, l.availableHeader(TlpClass.COMPLETION));
    assertFalse(l.canSend(TlpClass.COMPLETION, 0));
    l.initialise(new FcCredits(1, 1, 1, 1, 1, 1));
    // The consumption of the old training is gone.
    assertEquals(1, l.availableHeader(TlpClass.COMPLETION));
    assertEquals(1, l.availableData(TlpClass.COMPLETION));
  }

  @Test
  void shouldAllowSmallerLimitsWhenReinitialisedAfterRetraining() {
    CreditLedger l = ledger(new FcCredits(100, 100, 100, 100, 100, 100));
    l.initialise(new FcCredits(1, 1, 1, 1, 1, 1)); // partner retrained with smaller buffers
    assertEquals(1, l.availableHeader(TlpClass.POSTED));
    assertFalse(l.canSend(TlpClass.POSTED, 2));
  }

  @Test
  void shouldRejectNegativeCreditsWhenBuildingFcCredits() {
    assertThrows(IllegalArgumentException.class, () -> new FcCredits(-1, 0, 0, 0, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> new FcCredits(0, 0, 0, 0, 0, -1));
  }
}
