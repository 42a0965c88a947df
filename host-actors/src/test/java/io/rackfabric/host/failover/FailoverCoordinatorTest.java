package io.rackfabric.host.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.failover.FailoverCoordinator.Outcome;
import io.rackfabric.host.failover.FailoverCoordinator.RoundEnded;
import io.rackfabric.host.failover.FailoverCoordinator.Write;
import io.rackfabric.host.failover.HostLog.Entry;
import io.rackfabric.host.failover.HostLog.Step;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.Plane;
import io.rackfabric.host.settings.HostSettings;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The MH's fail-over decisions driven step by step: model times in, writes and log entries out,
 * and a wall clock the test moves for the retransmission rule.
 */
class FailoverCoordinatorTest {

  private static final LadonAddresses ADDRESSES = new LadonAddresses(GlobalMemoryLayout.paper(3), 0x10000);
  private static final long AER = 2_200;
  private static final long POLL = 7_700;
  private static final long SPIN = 100;
  private static final long UPDATE = 1_000;
  private static final long VERDICT = 50;
  private static final Duration GRACE = Duration.ofMillis(200);
  private static final long ACK_TIMEOUT = 20_000;

  /** The wall clock of the retransmission rule, moved only by the test. */
  private long wall;

  private FailoverCoordinator coordinator(NotificationMode mode, int maxResends) {
    HostSettings settings = new HostSettings(AER, POLL, SPIN, UPDATE, VERDICT, mode, GRACE, ACK_TIMEOUT, maxResends);
    return new FailoverCoordinator(ADDRESSES, settings, mode, () -> wall);
  }

  private void wallPasses(Duration d) {
    wall += d.toNanos();
  }

  private static long notification(int ch, Plane via) {
    return ADDRESSES.notificationOf(ch, via);
  }

  private static long multicast(Plane via) {
    return ADDRESSES.multicastPage(via).base() + LadonAddresses.NOTIFICATION;
  }

  /** What CH {@code ch}'s software answers to the notification {@code w}. */
  private static ControlWord ackOf(Write w) {
    return new ControlWord(ControlWord.Kind.ACK, w.word().host(), w.word().plane(), w.word().seq());
  }

  private static void assertRouteChange(Write w, long address, int failed, Plane failedPlane, long at) {
    assertEquals(address, w.address(), "address of " + w);
    assertEquals(ControlWord.Kind.ROUTE_CHANGE, w.word().kind(), w.toString());
    assertEquals(failed, w.word().host(), w.toString());
    assertEquals(failedPlane, w.word().plane(), w.toString());
    assertEquals(at, w.at(), w.toString());
  }

  private static Write only(Outcome o) {
    assertEquals(1, o.writes().size(), "one write: " + o.writes());
    return o.writes().get(0);
  }

  private static Entry entry(Step step, int host, long at) {
    return new Entry(step, host, at);
  }

  private static final Outcome NOTHING = new Outcome(List.of(), List.of(), List.of());

  // ---- a round as the paper describes it

  @Test
  void shouldAnswerRedirectAndNotifyOneByOneWhenUnicast() {
    FailoverCoordinator c = coordinator(NotificationMode.UNICAST, 5);

    Outcome report = c.reportLanded(1, Plane.PRIMARY, 10_000);

    long seen = 10_000 + POLL;
    long verdict = seen + VERDICT;
    assertEquals(List.of(entry(Step.REPORT_SEEN, 1, seen), entry(Step.VERDICT, 1, verdict),
        entry(Step.RESPONSE_SENT, 1, verdict), entry(Step.DMA_REDIRECTED, 1, verdict + UPDATE),
        entry(Step.NOTIFICATION_SENT, 1, verdict)), report.log());
    assertEquals(2, report.writes().size());
    Write response = report.writes().get(0);
    assertEquals(ADDRESSES.responseOf(1, Plane.SECONDARY), response.address(), "the reporter's primary is gone");
    assertEquals(new ControlWord(ControlWord.Kind.RESPONSE, 1, Plane.PRIMARY, response.word().seq()), response.word());
    assertEquals(verdict, response.at());
    Write toCh1 = report.writes().get(1);
    assertRouteChange(toCh1, notification(1, Plane.SECONDARY), 1, Plane.PRIMARY, verdict);
    assertEquals(List.of(Plane.PRIMARY, Plane.SECONDARY, Plane.PRIMARY, Plane.PRIMARY), c.dmaTargets());
    assertTrue(c.awaitingAcks());

    Outcome ack1 = c.ackLanded(1, ackOf(toCh1), 27_000);
    assertEquals(List.of(entry(Step.ACK_SEEN, 1, 27_100), entry(Step.NOTIFICATION_SENT, 2, 27_100)), ack1.log());
    Write toCh2 = only(ack1);
    assertRouteChange(toCh2, notification(2, Plane.PRIMARY), 1, Plane.PRIMARY, 27_100);

    Write toCh3 = only(c.ackLanded(2, ackOf(toCh2), 37_000));
    assertRouteChange(toCh3, notification(3, Plane.PRIMARY), 1, Plane.PRIMARY, 37_100);

    Outcome last = c.ackLanded(3, ackOf(toCh3), 47_000);
    assertEquals(List.of(), last.writes());
    assertEquals(List.of(entry(Step.ACK_SEEN, 3, 47_100), entry(Step.FAILOVER_COMPLETED, 1, 47_100)), last.log());
    assertEquals(List.of(new RoundEnded(1, Plane.PRIMARY, NotificationMode.UNICAST, verdict, 47_100, List.of())),
        last.ended());
    assertTrue(last.ended().get(0).completed());
    assertFalse(c.awaitingAcks());
  }

  @Test
  void shouldNotResendWhileTheRackIsHeldBeforeTheAcknowledgementCouldComeAndResendOnceLifted() {
    FailoverCoordinator c = coordinator(NotificationMode.UNICAST, 5);
    Write toCh1 = c.reportLanded(1, Plane.PRIMARY, 10_000).writes().get(1);
    c.holdFrom(toCh1.at() + 1); // a fault's horizon just after the notification left
    wallPasses(GRACE);
    assertEquals(NOTHING, c.checkAcks(), "held: the acknowledgement's model time has not come");
    wallPasses(GRACE);
    assertEquals(NOTHING, c.checkAcks());
    c.holdFrom(Long.MAX_VALUE);
    assertEquals(NOTHING, c.checkAcks(), "the grace starts again when the hold is lifted");
    wallPasses(GRACE);
    assertRouteChange(only(c.checkAcks()), notification(1, Plane.SECONDARY), 1, Plane.PRIMARY,
        toCh1.at() + ACK_TIMEOUT);
  }

  @Test
  void shouldNotifyAHostThroughItsOtherPlaneWhenItsOwnReportWaitsForItsRound() {
    FailoverCoordinator c = coordinator(NotificationMode.UNICAST, 5);
    Write toCh1 = c.reportLanded(1, Plane.PRIMARY, 10_000).writes().get(1);
    // CH2's primary link failed too: its report is judged at once, its round waits behind CH1's.
    Outcome queued = c.reportLanded(2, Plane.PRIMARY, 12_000);
    long seen = 12_000 + POLL;
    assertEquals(List.of(entry(Step.REPORT_SEEN, 2, seen), entry(Step.VERDICT, 2, seen + VERDICT),
        entry(Step.RESPONSE_SENT, 2, seen + VERDICT), entry(Step.DMA_REDIRECTED, 2, seen + VERDICT + UPDATE)),
        queued.log());
    assertEquals(Plane.SECONDARY, c.dmaTargets().get(2), "redirected by its own verdict");
    Write toCh2 = only(c.ackLanded(1, ackOf(toCh1), 27_000));
    assertRouteChange(toCh2, notification(2, Plane.SECONDARY), 1, Plane.PRIMARY, 27_100);
    wallPasses(GRACE);
    assertRouteChange(only(c.checkAcks()), notification(2, Plane.SECONDARY), 1, Plane.PRIMARY, 27_100 + ACK_TIMEOUT);
  }

  @Test
  void shouldSendOneWriteThroughTheHealthyPlaneAndEndAtTheLastAckWhenMulticast() {
    FailoverCoordinator c = coordinator(NotificationMode.MULTICAST, 5);

    Outcome report = c.reportLanded(2, Plane.PRIMARY, 0);
    long verdict = POLL + VERDICT;
    Write all = report.writes().get(1);
    assertRouteChange(all, multicast(Plane.SECONDARY), 2, Plane.PRIMARY, verdict);
    assertTrue(report.log().contains(entry(Step.NOTIFICATION_SENT, Notifier.EVERY_HOST, verdict)));

    assertEquals(List.of(), c.ackLanded(3, ackOf(all), 17_000).writes());
    assertEquals(List.of(), c.ackLanded(1, ackOf(all), 17_200).ended());
    Outcome last = c.ackLanded(2, ackOf(all), 18_000);
    assertEquals(List.of(new RoundEnded(2, Plane.PRIMARY, NotificationMode.MULTICAST, verdict, 18_100, List.of())),
        last.ended());
  }

  @Test
  void shouldChangeTheModeFromTheNextRoundOnWhenToldDuringOne() {
    FailoverCoordinator c = coordinator(NotificationMode.UNICAST, 5);
    Write first = c.reportLanded(1, Plane.PRIMARY, 0).writes().get(1);
    c.useMode(NotificationMode.MULTICAST);
    Write second = only(c.ackLanded(1, ackOf(first), 10_000));
    assertEquals(notification(2, Plane.PRIMARY), second.address(), "the running round stays unicast");
    Write third = only(c.ackLanded(2, ackOf(second), 20_000));
    assertEquals(NotificationMode.UNICAST, c.ackLanded(3, ackOf(third), 30_000).ended().get(0).mode());

    Outcome next = c.reportLanded(3, Plane.PRIMARY, 40_000);
    assertRouteChange(next.writes().get(1), multicast(Plane.SECONDARY), 3, Plane.PRIMARY, 40_000 + POLL + VERDICT);
  }

  // ---- reports while a round runs

  @Test
  void shouldQueueAReportAndStartItsRoundWhenTheNotifierIsFree() {
    FailoverCoordinator c = coordinator(NotificationMode.UNICAST, 5);
    Write toCh1 = c.reportLanded(1, Plane.PRIMARY, 10_000).writes().get(1);

    // The poller reads it and gives the verdict at its own model time; only the round waits.
    Outcome queued = c.reportLanded(2, Plane.PRIMARY, 12_000);
    assertEquals(List.of(entry(Step.REPORT_SEEN, 2, 19_700), entry(Step.VERDICT, 2, 19_750),
        entry(Step.RESPONSE_SENT, 2, 19_750), entry(Step.DMA_REDIRECTED, 2, 20_750)), queued.log());
    assertEquals(ADDRESSES.responseOf(2, Plane.SECONDARY), only(queued).address());
    assertEquals(19_750, only(queued).at());

    Write toCh2 = only(c.ackLanded(1, ackOf(toCh1), 27_000));
    Write toCh3 = only(c.ackLanded(2, ackOf(toCh2), 37_000));
    Outcome end = c.ackLanded(3, ackOf(toCh3), 47_000);

    // The first round ends and the second starts in the same step: its first notification waited
    // for the notifier.
    assertEquals(List.of(entry(Step.ACK_SEEN, 3, 47_100), entry(Step.FAILOVER_COMPLETED, 1, 47_100),
        entry(Step.NOTIFICATION_SENT, 1, 47_100)), end.log());
    assertRouteChange(only(end), notification(1, Plane.SECONDARY), 2, Plane.PRIMARY, 47_100);
    assertEquals(1, end.ended().size());
    assertEquals(List.of(Plane.PRIMARY, Plane.SECONDARY, Plane.SECONDARY, Plane.PRIMARY), c.dmaTargets());
  }

  @Test
  void shouldOnlyAnswerAQueuedReportWhenItsHostAlreadyFailedOver() {
    FailoverCoordinator c = coordinator(NotificationMode.MULTICAST, 5);
    Outcome lost = c.planeLost(Plane.PRIMARY, 5_000);
    long handled = 5_000 + AER;
    assertEquals(List.of(entry(Step.AER_RECEIVED, 0, 5_000), entry(Step.AER_HANDLED, 0, handled),
        entry(Step.VERDICT, 0, handled + VERDICT), entry(Step.DMA_REDIRECTED, 0, handled + VERDICT + UPDATE),
        entry(Step.NOTIFICATION_SENT, 0, handled + VERDICT)), lost.log());
    Write all = only(lost);
    assertRouteChange(all, multicast(Plane.SECONDARY), 0, Plane.PRIMARY, handled + VERDICT);

    Outcome answered = c.reportLanded(2, Plane.PRIMARY, 6_000);
    assertEquals(List.of(entry(Step.REPORT_SEEN, 2, 6_000 + POLL), entry(Step.RESPONSE_SENT, 2, 6_000 + POLL + VERDICT)),
        answered.log(), "no verdict, no round of its own: only the answer");
    assertEquals(ADDRESSES.responseOf(2, Plane.SECONDARY), only(answered).address());
    c.ackLanded(1, ackOf(all), 20_000);
    c.ackLanded(2, ackOf(all), 20_000);
    Outcome end = c.ackLanded(3, ackOf(all), 20_500);

    assertEquals(List.of(entry(Step.ACK_SEEN, 3, 20_600), entry(Step.FAILOVER_COMPLETED, 0, 20_600)), end.log(),
        "no second round");
    assertEquals(List.of(), end.writes());
    assertFalse(c.awaitingAcks());
  }

  // ---- a plane lost during a round

  @Test
  void shouldResendOverTheOtherPlaneANotificationThatWentOverALostPlane() {
    FailoverCoordinator c = coordinator(NotificationMode.UNICAST, 5);
    Write toCh1 = c.reportLanded(1, Plane.PRIMARY, 10_000).writes().get(1);
    Write toCh2 = only(c.ackLanded(1, ackOf(toCh1), 27_000));
    assertEquals(notification(2, Plane.PRIMARY), toCh2.address());

    Outcome lost = c.planeLost(Plane.PRIMARY, 30_000);

    long handled = 30_000 + AER;
    assertEquals(List.of(entry(Step.AER_RECEIVED, 0, 30_000), entry(Step.AER_HANDLED, 0, handled),
        entry(Step.NOTIFICATION_RESENT, 2, handled), entry(Step.VERDICT, 0, handled + VERDICT),
        entry(Step.DMA_REDIRECTED, 0, handled + VERDICT + UPDATE)), lost.log(),
        "judged at once; the plane's round waits for this one");
    Write again = only(lost);
    assertRouteChange(again, notification(2, Plane.SECONDARY), 1, Plane.PRIMARY, handled);
    assertNotEquals(toCh2.word().seq(), again.word().seq(), "a new word, so the poller sees a change");
    assertEquals(List.of(Plane.PRIMARY, Plane.SECONDARY, Plane.SECONDARY, Plane.SECONDARY), c.dmaTargets());

    Write toCh3 = only(c.ackLanded(2, ackOf(again), 42_000));
    assertRouteChange(toCh3, notification(3, Plane.SECONDARY), 1, Plane.PRIMARY, 42_100);
    Outcome end = c.ackLanded(3, ackOf(toCh3), 52_000);
    assertTrue(end.ended().get(0).completed());
    assertTrue(end.log().contains(entry(Step.NOTIFICATION_SENT, 1, 52_100)), "then the plane's own round");
    assertRouteChange(end.writes().get(0), notification(1, Plane.SECONDARY), 0, Plane.PRIMARY, 52_100);
  }

  @Test
  void shouldResendNothingWhenTheLostPlaneIsTheOneTheMulticastAvoided() {
    FailoverCoordinator c = coordinator(NotificationMode.MULTICAST, 5);
    Write all = c.reportLanded(1, Plane.PRIMARY, 0).writes().get(1);
    assertEquals(multicast(Plane.SECONDARY), all.address());
    c.ackLanded(2, ackOf(all), 15_000);

    Outcome lost = c.planeLost(Plane.PRIMARY, 16_000);

    assertEquals(List.of(), lost.writes(), "the round's write went through the secondary plane");
    assertEquals(List.of(entry(Step.AER_RECEIVED, 0, 16_000), entry(Step.AER_HANDLED, 0, 16_000 + AER),
        entry(Step.VERDICT, 0, 16_000 + AER + VERDICT), entry(Step.DMA_REDIRECTED, 0, 16_000 + AER + VERDICT + UPDATE)),
        lost.log());
    c.ackLanded(1, ackOf(all), 16_500);
    Outcome end = c.ackLanded(3, ackOf(all), 17_000);
    assertTrue(end.ended().get(0).completed());
    assertRouteChange(only(end), multicast(Plane.SECONDARY), 0, Plane.PRIMARY, 16_000 + AER + VERDICT);
  }

  // ---- retransmission on the wall clock

  @Test
  void shouldResendALostNotificationOnceTheGracePassesWithoutAnAck() {
    FailoverCoordinator c = coordinator(NotificationMode.UNICAST, 5);
    Write toCh1 = c.reportLanded(1, Plane.PRIMARY, 10_000).writes().get(1);
    wallPasses(Duration.ofMillis(3));
    Write toCh2 = only(c.ackLanded(1, ackOf(toCh1), 27_000));
    // toCh2 is lost: nothing comes back.

    wallPasses(GRACE.minusNanos(1));
    assertEquals(NOTHING, c.checkAcks(), "not yet");
    wallPasses(Duration.ofNanos(1));
    Outcome resent = c.checkAcks();

    long at = toCh2.at() + ACK_TIMEOUT;
    assertEquals(List.of(entry(Step.NOTIFICATION_RESENT, 2, at)), resent.log());
    Write again = only(resent);
    assertRouteChange(again, notification(2, Plane.PRIMARY), 1, Plane.PRIMARY, at);
    assertNotEquals(toCh2.word().seq(), again.word().seq());
    assertEquals(NOTHING, c.checkAcks(), "the resend restarts the grace");

    Outcome ack2 = c.ackLanded(2, ackOf(again), at + 9_000);
    assertEquals(List.of(entry(Step.ACK_SEEN, 2, at + 9_100), entry(Step.NOTIFICATION_SENT, 3, at + 9_100)),
        ack2.log());
    Outcome end = c.ackLanded(3, ackOf(only(ack2)), at + 20_000);
    assertTrue(end.ended().get(0).completed());
  }

  @Test
  void shouldStampAResendWithTheLatestModelTimeWhenTheMhIsAlreadyPastTheTimeout() {
    FailoverCoordinator c = coordinator(NotificationMode.UNICAST, 5);
    Write toCh1 = c.reportLanded(1, Plane.PRIMARY, 10_000).writes().get(1);
    c.reportLanded(3, Plane.PRIMARY, 100_000); // judged, its round queued: the MH now knows model 107_750
    assertEquals(107_750, c.latest());

    wallPasses(GRACE);
    Write again = only(c.checkAcks());

    assertRouteChange(again, notification(1, Plane.SECONDARY), 1, Plane.PRIMARY, 107_750);
    assertTrue(toCh1.at() + ACK_TIMEOUT < again.at());
  }

  @Test
  void shouldResendWhenTheAckIsLostAndIgnoreTheLateFirstAckAfterwards() {
    FailoverCoordinator c = coordinator(NotificationMode.UNICAST, 5);
    Write toCh1 = c.reportLanded(1, Plane.PRIMARY, 10_000).writes().get(1);
    // CH1 got it and acknowledged, but its acknowledgement is held up (or lost) in the fabric.
    wallPasses(GRACE);
    Write again = only(c.checkAcks());
    assertEquals(notification(1, Plane.SECONDARY), again.address());

    Outcome ackOfResend = c.ackLanded(1, ackOf(again), 50_000);
    assertEquals(List.of(entry(Step.ACK_SEEN, 1, 50_100), entry(Step.NOTIFICATION_SENT, 2, 50_100)),
        ackOfResend.log());

    Outcome lateFirst = c.ackLanded(1, ackOf(toCh1), 51_000);
    assertEquals(NOTHING, lateFirst, "a second acknowledgement of CH1's is neither logged nor acted on");
    assertTrue(c.awaitingAcks(), "still waiting for CH2");
  }

  @Test
  void shouldIgnoreRepeatedLateAndForeignAcks() {
    FailoverCoordinator c = coordinator(NotificationMode.UNICAST, 5);
    ControlWord stray = new ControlWord(ControlWord.Kind.ACK, 1, Plane.PRIMARY, 9);
    assertEquals(NOTHING, c.ackLanded(1, stray, 1_000), "no round running");

    Write toCh1 = c.reportLanded(1, Plane.PRIMARY, 10_000).writes().get(1);
    Write toCh2 = only(c.ackLanded(1, ackOf(toCh1), 27_000));
    assertEquals(NOTHING, c.ackLanded(1, ackOf(toCh1), 27_500), "a duplicate");
    assertEquals(NOTHING, c.ackLanded(3, ackOf(toCh2), 27_600), "CH3 is not notified yet");
    assertEquals(NOTHING, c.ackLanded(2, new ControlWord(ControlWord.Kind.FAILURE_REPORT, 1, Plane.PRIMARY,
        toCh2.word().seq()), 28_000), "not an acknowledgement");
    assertEquals(NOTHING, c.ackLanded(2, new ControlWord(ControlWord.Kind.ACK, 3, Plane.PRIMARY,
        toCh2.word().seq()), 28_000), "about another failure");
    Write toCh3 = only(c.ackLanded(2, ackOf(toCh2), 37_000));
    c.ackLanded(3, ackOf(toCh3), 47_000);

    // A second round, for CH3: CH1's late duplicate of the first round must not count for it.
    Write round2 = c.reportLanded(3, Plane.PRIMARY, 50_000).writes().get(1);
    assertEquals(notification(1, Plane.SECONDARY), round2.address());
    assertEquals(NOTHING, c.ackLanded(1, ackOf(toCh1), 58_000));
    assertTrue(c.awaitingAcks());
    assertEquals(List.of(entry(Step.ACK_SEEN, 1, 70_100), entry(Step.NOTIFICATION_SENT, 2, 70_100)),
        c.ackLanded(1, ackOf(round2), 70_000).log());
  }

  @Test
  void shouldRestartTheGraceWithEveryAckWhenMulticast() {
    FailoverCoordinator c = coordinator(NotificationMode.MULTICAST, 5);
    Write all = c.reportLanded(1, Plane.PRIMARY, 0).writes().get(1);
    wallPasses(Duration.ofMillis(150));
    c.ackLanded(1, ackOf(all), 16_000);
    wallPasses(Duration.ofMillis(150));
    assertEquals(NOTHING, c.checkAcks(), "150ms since CH1's acknowledgement");
    wallPasses(Duration.ofMillis(50));

    Outcome resent = c.checkAcks();

    long at = all.at() + ACK_TIMEOUT;
    assertEquals(List.of(entry(Step.NOTIFICATION_RESENT, 2, at), entry(Step.NOTIFICATION_RESENT, 3, at)),
        resent.log(), "only the CHs still unacknowledged, each by itself");
    assertRouteChange(resent.writes().get(0), notification(2, Plane.PRIMARY), 1, Plane.PRIMARY, at);
    assertRouteChange(resent.writes().get(1), notification(3, Plane.PRIMARY), 1, Plane.PRIMARY, at);
  }

  @Test
  void shouldGiveUpOnASilentHostAfterMaxResendsAndStillNotifyTheRest() {
    FailoverCoordinator c = coordinator(NotificationMode.UNICAST, 2);
    Write toCh1 = c.reportLanded(1, Plane.PRIMARY, 10_000).writes().get(1);
    Write toCh2 = only(c.ackLanded(1, ackOf(toCh1), 27_000));
    // Judged at once, its round queued behind this one.
    assertTrue(c.reportLanded(3, Plane.PRIMARY, 28_000).log().contains(entry(Step.VERDICT, 3, 28_000 + POLL + VERDICT)));

    wallPasses(GRACE);
    Write first = only(c.checkAcks());
    wallPasses(GRACE);
    assertEquals(NOTHING, c.checkAcks(), "the grace doubled with the resend");
    wallPasses(GRACE);
    Write second = only(c.checkAcks());
    assertEquals(toCh2.at() + ACK_TIMEOUT, first.at());
    assertEquals(first.at() + ACK_TIMEOUT, second.at());
    wallPasses(GRACE.multipliedBy(4));
    Outcome gaveUp = c.checkAcks();

    long at = second.at() + ACK_TIMEOUT;
    assertEquals(List.of(entry(Step.NOTIFICATION_ABANDONED, 2, at), entry(Step.NOTIFICATION_SENT, 3, at)),
        gaveUp.log());
    Write toCh3 = only(gaveUp);
    assertRouteChange(toCh3, notification(3, Plane.SECONDARY), 1, Plane.PRIMARY, at); // its own report said PMS1 is lost

    Outcome end = c.ackLanded(3, ackOf(toCh3), at + 10_000);
    RoundEnded ended = end.ended().get(0);
    assertEquals(List.of(2), ended.unacknowledged());
    assertFalse(ended.completed());
    assertEquals(at + 10_000 + SPIN, ended.endedAt());
    assertTrue(end.log().contains(entry(Step.FAILOVER_FAILED, 1, at + 10_100)));
    assertFalse(end.log().stream().anyMatch(e -> e.step() == Step.FAILOVER_COMPLETED));
    assertTrue(end.log().contains(entry(Step.NOTIFICATION_SENT, 1, at + 10_100)), "the queued report's round goes on");
    assertTrue(c.awaitingAcks());
  }

  @Test
  void shouldEndTheRoundAsFailedWhenGivingUpOnTheLastHostItWaitsFor() {
    FailoverCoordinator c = coordinator(NotificationMode.MULTICAST, 0);
    Write all = c.reportLanded(1, Plane.PRIMARY, 0).writes().get(1);
    c.ackLanded(1, ackOf(all), 16_000);
    c.ackLanded(3, ackOf(all), 16_000);

    wallPasses(GRACE);
    Outcome gaveUp = c.checkAcks();

    long at = all.at() + ACK_TIMEOUT;
    assertEquals(List.of(), gaveUp.writes(), "max-resends 0: no resend");
    assertEquals(List.of(entry(Step.NOTIFICATION_ABANDONED, 2, at), entry(Step.FAILOVER_FAILED, 1, at)),
        gaveUp.log());
    assertEquals(List.of(new RoundEnded(1, Plane.PRIMARY, NotificationMode.MULTICAST, all.at(), at, List.of(2))),
        gaveUp.ended());
    assertFalse(c.awaitingAcks());
    wallPasses(GRACE);
    assertEquals(NOTHING, c.checkAcks());
  }

  @Test
  void shouldDoNothingOnTheWallClockWhenNoRoundRuns() {
    FailoverCoordinator c = coordinator(NotificationMode.UNICAST, 5);
    wallPasses(Duration.ofSeconds(5));
    assertFalse(c.awaitingAcks());
    assertEquals(NOTHING, c.checkAcks());
  }

  // ---- retransmission in model time, under the kernel

  @Test
  void shouldResendAtTheAckDeadlineInModelTimeWithoutWallTimePassing() {
    FailoverCoordinator c = coordinator(NotificationMode.UNICAST, 5);
    Write toCh1 = c.reportLanded(1, Plane.PRIMARY, 10_000).writes().get(1);
    long deadline = toCh1.at() + ACK_TIMEOUT;
    assertEquals(deadline, c.nextAckDeadline());
    assertEquals(NOTHING, c.checkAcksAt(deadline - 1), "not yet overdue");

    Outcome resent = c.checkAcksAt(deadline);
    assertEquals(List.of(entry(Step.NOTIFICATION_RESENT, 1, deadline)), resent.log());
    assertEquals(deadline + ACK_TIMEOUT, c.nextAckDeadline(), "the copy's own deadline");

    Outcome ack = c.ackLanded(1, ackOf(only(resent)), deadline + 5_000);
    assertTrue(ack.log().stream().anyMatch(e -> e.step() == Step.ACK_SEEN));
  }

  @Test
  void shouldHaveNoAckDeadlineWhenNoRoundWaits() {
    FailoverCoordinator c = coordinator(NotificationMode.UNICAST, 5);
    assertEquals(Long.MAX_VALUE, c.nextAckDeadline());
    assertEquals(NOTHING, c.checkAcksAt(Long.MAX_VALUE - 1));
  }
}
