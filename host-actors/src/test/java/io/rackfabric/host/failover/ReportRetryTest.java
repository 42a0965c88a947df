package io.rackfabric.host.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.failover.ReportRetry.Decision;
import io.rackfabric.host.settings.HostSettings;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A CH's report retransmission driven step by step on a wall clock the test moves. */
class ReportRetryTest {

  private static final Duration GRACE = Duration.ofMillis(200);
  private static final long TIMEOUT = 20_000;

  private long wall;

  private ReportRetry retry(int maxResends) {
    return new ReportRetry(new HostSettings(2_200, 7_700, 100, 1_000, 0, NotificationMode.UNICAST, GRACE, TIMEOUT,
        maxResends), () -> wall);
  }

  @Test
  void shouldWaitUntilTheGraceHasPassedWhenNoResponseCame() {
    ReportRetry r = retry(5);
    r.sent(10_000);
    wall += GRACE.toNanos() - 1;
    assertEquals(Decision.Kind.WAIT, r.check(10_000).kind());
    wall += 1;
    Decision d = r.check(10_000);
    assertEquals(Decision.Kind.RESEND, d.kind());
    assertEquals(10_000 + TIMEOUT, d.at());
    assertTrue(r.waiting());
  }

  @Test
  void shouldStampAResendNoEarlierThanTheLatestTimeTheHostKnowsWhenItRanAhead() {
    ReportRetry r = retry(5);
    r.sent(10_000);
    wall += GRACE.toNanos();
    assertEquals(90_000, r.check(90_000).at());
    wall += 2 * GRACE.toNanos(); // the grace doubles after a resend
    assertEquals(90_000 + TIMEOUT, r.check(0).at(), "the next one counts from the resend");
  }

  @Test
  void shouldGiveUpAfterMaxResendsWhenNothingEverAnswers() {
    ReportRetry r = retry(2);
    r.sent(0);
    wall += GRACE.toNanos();
    assertEquals(new Decision(Decision.Kind.RESEND, TIMEOUT), r.check(0));
    // Each resend doubles the grace: a stalled machine does not use up the resends in a second.
    wall += GRACE.toNanos();
    assertEquals(Decision.Kind.WAIT, r.check(0).kind(), "one grace after the first resend");
    wall += GRACE.toNanos();
    assertEquals(new Decision(Decision.Kind.RESEND, 2 * TIMEOUT), r.check(0));
    wall += 4 * GRACE.toNanos() - 1;
    assertEquals(Decision.Kind.WAIT, r.check(0).kind());
    wall += 1;
    assertEquals(new Decision(Decision.Kind.GIVE_UP, 3 * TIMEOUT), r.check(0));
    assertFalse(r.waiting());
    wall += GRACE.toNanos();
    assertEquals(Decision.Kind.WAIT, r.check(0).kind(), "nothing after giving up");
  }

  @Test
  void shouldWaitWhileTheRackIsHeldBeforeTheResendTimeAndResendAGraceAfterTheLift() {
    ReportRetry r = retry(5);
    r.sent(10_000);
    r.holdFrom(20_000); // the resend (10us + timeout) would be stamped past the horizon
    wall += 5 * GRACE.toNanos();
    assertEquals(Decision.Kind.WAIT, r.check(10_000).kind());
    r.holdFrom(Long.MAX_VALUE);
    assertEquals(Decision.Kind.WAIT, r.check(10_000).kind(), "a fresh grace after the lift");
    wall += GRACE.toNanos();
    assertEquals(new Decision(Decision.Kind.RESEND, 10_000 + TIMEOUT), r.check(10_000));
  }

  @Test
  void shouldResendNothingWhenTheResponseCame() {
    ReportRetry r = retry(5);
    r.sent(0);
    r.answered();
    wall += 10 * GRACE.toNanos();
    assertEquals(Decision.Kind.WAIT, r.check(0).kind());
    assertFalse(r.waiting());
  }

  // ---- in model time, under the kernel

  @Test
  void shouldResendAtTheModelDeadlineWhateverTheWallClockSaysWhenUnderTheKernel() {
    ReportRetry r = retry(1);
    assertEquals(Long.MAX_VALUE, r.deadline(), "nothing sent");
    r.sent(10_000);
    assertEquals(10_000 + TIMEOUT, r.deadline());
    assertEquals(Decision.Kind.WAIT, r.checkAt(10_000 + TIMEOUT - 1, 0).kind(), "one ns early");
    // No wall time passed at all: the model says the response is overdue.
    assertEquals(new Decision(Decision.Kind.RESEND, 10_000 + TIMEOUT), r.checkAt(10_000 + TIMEOUT, 0));
    assertEquals(10_000 + 2 * TIMEOUT, r.deadline(), "the next copy's deadline");
    assertEquals(new Decision(Decision.Kind.GIVE_UP, 10_000 + 2 * TIMEOUT), r.checkAt(10_000 + 2 * TIMEOUT, 0));
    assertFalse(r.waiting());
    assertEquals(Long.MAX_VALUE, r.deadline());
  }

  @Test
  void shouldDecideNothingInModelTimeWhenTheResponseCame() {
    ReportRetry r = retry(5);
    r.sent(0);
    r.answered();
    assertEquals(Decision.Kind.WAIT, r.checkAt(TIMEOUT, 0).kind());
  }
}
