package io.rackfabric.fabric.link;

import static io.rackfabric.fabric.link.LinkStateMachine.LINK_DOWN;
import static io.rackfabric.fabric.link.LinkStateMachine.LINK_PROTECTED;
import static io.rackfabric.fabric.link.LinkStateMachine.LINK_UP;
import static io.rackfabric.fabric.link.LinkStateMachine.SEND_INIT;
import static io.rackfabric.fabric.link.LinkStateMachine.SEND_PHYSICAL_DOWN;
import static io.rackfabric.fabric.link.LinkStateMachine.SEND_UPDATE;
import static io.rackfabric.fabric.link.LinkStateMachine.TAKE_PARTNER_CREDITS;
import static io.rackfabric.fabric.link.LinkStateMachine.TIMED_OUT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.credit.FcCredits;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Drives two state machines step by step with explicit wall-clock nanoseconds. Each end's actions
 * are turned into frames the way {@link LinkTraining} does, into an outbox the test delivers (or loses)
 * by hand.
 */
class LinkStateMachineTest {

  private static final long MS = 1_000_000L;
  /** keepalive 100 ms, DLLP timeout 1500 ms, InitFC retry 50 ms, init timeout 1 s, retry 200 ms. */
  private static final LinkTimers TIMERS = LinkTimers.defaults();
  private static final FcCredits BUFFERS = new FcCredits(8, 64, 8, 0, 8, 64);

  private static final class End {
    final LinkStateMachine m;
    final ArrayDeque<LinkFrame> out = new ArrayDeque<>();
    final List<Integer> actionLog = new ArrayList<>();
    final List<DataLinkState> states = new ArrayList<>();

    End(boolean autoActivate, long seed) {
      m = new LinkStateMachine(TIMERS, autoActivate, seed);
      states.add(m.state());
    }

    int apply(int actions, long now) {
      if ((actions & SEND_PHYSICAL_DOWN) != 0) {
        out.add(new PhysicalDown(now));
      }
      if ((actions & SEND_INIT) != 0) {
        out.add(new InitFc(BUFFERS, m.training(), m.partnerTraining(), now));
        m.onSent(now);
      }
      if ((actions & SEND_UPDATE) != 0) {
        out.add(new UpdateFc(BUFFERS, now));
        m.onSent(now);
      }
      actionLog.add(actions);
      if (states.get(states.size() - 1) != m.state()) {
        states.add(m.state());
      }
      return actions;
    }

    int enable(long now) {
      return apply(m.enable(now), now);
    }

    int disable(long now) {
      return apply(m.disable(now), now);
    }

    int tick(long now) {
      return apply(m.tick(now), now);
    }

    int receive(LinkFrame f, long now) {
      if (f instanceof InitFc i) {
        return apply(m.onInitFc(i, now), now);
      } else if (f instanceof UpdateFc) {
        return apply(m.onUpdateFc(now), now);
      } else if (f instanceof PhysicalDown) {
        return apply(m.onPhysicalDown(now), now);
      }
      throw new AssertionError("unexpected " + f);
    }

    int anyActions() {
      int all = 0;
      for (int a : actionLog) {
        all |= a;
      }
      return all;
    }
  }

  /** Delivers the oldest frame from {@code from} to {@code to}. */
  private static int deliver(End from, End to, long now) {
    LinkFrame f = from.out.poll();
    assertTrue(f != null, "nothing to deliver");
    return to.receive(f, now);
  }

  /** Delivers frames both ways, one at a time, until both outboxes are empty; returns the time. */
  private static long exchange(End a, End b, long now) {
    int guard = 0;
    while (!a.out.isEmpty() || !b.out.isEmpty()) {
      assertTrue(++guard < 100, "DLLP ping-pong never settles");
      if (!a.out.isEmpty()) {
        deliver(a, b, ++now);
      }
      if (!b.out.isEmpty()) {
        deliver(b, a, ++now);
      }
    }
    return now;
  }

  private static long trainUp(End a, End b, long now) {
    a.enable(now);
    b.enable(now);
    now = exchange(a, b, now);
    assertEquals(DataLinkState.DL_ACTIVE, a.m.state());
    assertEquals(DataLinkState.DL_ACTIVE, b.m.state());
    return now;
  }

  private static boolean has(int actions, int bit) {
    return (actions & bit) != 0;
  }

  @Test
  void shouldTrainInactiveInitProtectedActiveWhenWiredBackToBackWithAutoActivate() {
    End a = new End(true, 1);
    End b = new End(true, 2);
    assertEquals(DataLinkState.DL_INACTIVE, a.m.state());

    assertEquals(SEND_INIT, a.enable(0));
    assertEquals(DataLinkState.DL_INIT, a.m.state());
    assertEquals(0, deliver(a, b, 1)); // b is not enabled yet: InitFC ignored
    assertEquals(DataLinkState.DL_INACTIVE, b.m.state());

    assertEquals(SEND_INIT, b.enable(2));
    assertEquals(TAKE_PARTNER_CREDITS | SEND_INIT, deliver(b, a, 3));
    assertEquals(DataLinkState.DL_INIT, a.m.state());
    assertEquals(b.m.training(), a.m.partnerTraining());

    // b learns a's credits and that a has seen b's attempt: b is up.
    assertEquals(TAKE_PARTNER_CREDITS | SEND_INIT | LINK_PROTECTED | LINK_UP, deliver(a, b, 4));
    assertEquals(DataLinkState.DL_ACTIVE, b.m.state());
    // a gets b's answer naming a's attempt: a is up, and need not answer again.
    assertEquals(LINK_PROTECTED | LINK_UP, deliver(b, a, 5));
    assertEquals(DataLinkState.DL_ACTIVE, a.m.state());
    assertTrue(a.out.isEmpty() && b.out.isEmpty());

    assertEquals(List.of(DataLinkState.DL_INACTIVE, DataLinkState.DL_INIT, DataLinkState.DL_ACTIVE),
        a.states); // PROTECTED is passed through within one step (LINK_PROTECTED reported)
    assertTrue(a.m.mayTransmit(false));
    assertTrue(a.m.mayReceive());
    assertEquals(a.m.training(), b.m.partnerTraining());
  }

  @Test
  void shouldStopAtProtectedUntilActivatedWhenAutoActivateIsOff() {
    End a = new End(false, 1);
    End b = new End(false, 2);
    a.enable(0);
    b.enable(0);
    long now = exchange(a, b, 0);
    assertEquals(DataLinkState.DL_PROTECTED, a.m.state());
    assertEquals(DataLinkState.DL_PROTECTED, b.m.state());
    assertTrue(has(a.anyActions(), LINK_PROTECTED));
    assertFalse(has(a.anyActions(), LINK_UP));
    assertTrue(a.m.isUp());
    assertTrue(a.m.mayReceive());
    assertTrue(a.m.mayTransmit(true));
    assertFalse(a.m.mayTransmit(false));

    assertEquals(LINK_UP, a.m.activate(now + 1));
    assertEquals(DataLinkState.DL_ACTIVE, a.m.state());
    assertTrue(a.m.mayTransmit(false));
    assertEquals(0, a.m.activate(now + 2)); // already active
    assertEquals(DataLinkState.DL_PROTECTED, b.m.state()); // activation is per end
  }

  @Test
  void shouldGoBackToProtectedWhenDeactivatedAndStayTrained() {
    End a = new End(false, 1);
    End b = new End(false, 2);
    a.enable(0);
    b.enable(0);
    long now = exchange(a, b, 0);
    a.m.activate(now + 1);
    assertEquals(0, a.m.deactivate(now + 2), "nothing to do on the wire: the link stays trained");
    assertEquals(DataLinkState.DL_PROTECTED, a.m.state());
    assertTrue(a.m.isUp());
    assertFalse(a.m.mayTransmit(false));
    assertTrue(a.m.mayTransmit(true));
    assertEquals(0, a.m.deactivate(now + 3));
    assertEquals(DataLinkState.DL_PROTECTED, a.m.state(), "deactivating a protected port changes nothing");
    assertEquals(LINK_UP, a.m.activate(now + 4), "and it may be activated again");
  }

  @Test
  void shouldNotActivateWhenLinkIsNotProtected() {
    End a = new End(false, 1);
    assertEquals(0, a.m.activate(0));
    assertEquals(DataLinkState.DL_INACTIVE, a.m.state());
    a.enable(1);
    assertEquals(0, a.m.activate(2));
    assertEquals(DataLinkState.DL_INIT, a.m.state());
    assertFalse(a.m.mayTransmit(true));
    assertFalse(a.m.mayReceive());
  }

  @Test
  void shouldComeUpWithoutExtraTrafficWhenBothEndsStartSimultaneously() {
    End a = new End(true, 1);
    End b = new End(true, 2);
    a.enable(0);
    b.enable(0);
    // Both InitFCs cross on the wire.
    LinkFrame fromA = a.out.poll();
    LinkFrame fromB = b.out.poll();
    assertEquals(TAKE_PARTNER_CREDITS | SEND_INIT, b.receive(fromA, 1));
    assertEquals(TAKE_PARTNER_CREDITS | SEND_INIT, a.receive(fromB, 1));
    // The answers cross too; each names the other's attempt.
    fromA = a.out.poll();
    fromB = b.out.poll();
    assertEquals(LINK_PROTECTED | LINK_UP, b.receive(fromA, 2));
    assertEquals(LINK_PROTECTED | LINK_UP, a.receive(fromB, 2));
    assertTrue(a.out.isEmpty(), "no further DLLP after training");
    assertTrue(b.out.isEmpty(), "no further DLLP after training");
    assertEquals(DataLinkState.DL_ACTIVE, a.m.state());
    assertEquals(DataLinkState.DL_ACTIVE, b.m.state());
  }

  @Test
  void shouldRecoverWithRetryTimerWhenFirstInitFcsAreLost() {
    End a = new End(true, 1);
    End b = new End(true, 2);
    a.enable(0);
    b.enable(0);
    a.out.clear(); // both lost
    b.out.clear();
    assertEquals(0, a.tick(49 * MS));
    assertEquals(0, b.tick(49 * MS));
    assertEquals(SEND_INIT, a.tick(50 * MS));
    assertEquals(SEND_INIT, b.tick(50 * MS));
    exchange(a, b, 50 * MS);
    assertEquals(DataLinkState.DL_ACTIVE, a.m.state());
    assertEquals(DataLinkState.DL_ACTIVE, b.m.state());
  }

  @Test
  void shouldRecoverWithRetryTimerWhenFinalInitFcIsLost() {
    End a = new End(true, 1);
    End b = new End(true, 2);
    a.enable(0);
    b.enable(0);
    LinkFrame fromA = a.out.poll();
    LinkFrame fromB = b.out.poll();
    b.receive(fromA, 1);
    a.receive(fromB, 1);
    a.out.poll(); // a's answer, naming b's attempt, is lost
    a.receive(b.out.poll(), 2);
    assertEquals(DataLinkState.DL_ACTIVE, a.m.state());
    assertEquals(DataLinkState.DL_INIT, b.m.state());

    // b's retry timer resends its InitFC; a, already up, must answer it (and stay up).
    assertEquals(0, b.tick(49 * MS));
    assertEquals(SEND_INIT, b.tick(50 * MS + 1)); // b last sent at 1 ns
    int aActions = deliver(b, a, 50 * MS + 1);
    assertFalse(has(aActions, LINK_DOWN));
    assertEquals(DataLinkState.DL_ACTIVE, a.m.state());
    assertTrue(!a.out.isEmpty(), "a ignored b's retried InitFC");
    assertEquals(SEND_UPDATE, aActions); // an UpdateFC: it proves a is up and is never answered
    int bActions = deliver(a, b, 50 * MS + 2);
    assertTrue(has(bActions, LINK_UP));
    assertFalse(has(bActions, TAKE_PARTNER_CREDITS)); // same attempt: b keeps the credits it took
    assertEquals(DataLinkState.DL_ACTIVE, b.m.state());
    assertTrue(b.out.isEmpty());
    assertFalse(has(a.anyActions(), LINK_DOWN));
  }

  @Test
  void shouldCompleteTrainingWhenUpdateFcArrivesInsteadOfLostInitFc() {
    End a = new End(true, 1);
    End b = new End(true, 2);
    a.enable(0);
    b.enable(0);
    b.receive(a.out.poll(), 1);
    a.receive(b.out.poll(), 1);
    a.out.poll(); // lost
    a.receive(b.out.poll(), 2);
    assertEquals(DataLinkState.DL_INIT, b.m.state());
    assertEquals(SEND_UPDATE, a.tick(100 * MS + 2)); // a's keepalive
    assertEquals(LINK_PROTECTED | LINK_UP, deliver(a, b, 100 * MS + 3));
    assertEquals(DataLinkState.DL_ACTIVE, b.m.state());
  }

  @Test
  void shouldIgnoreUpdateFcWhenPartnerCreditsAreNotKnownYet() {
    End b = new End(true, 2);
    b.enable(0);
    assertEquals(0, b.receive(new UpdateFc(BUFFERS, 0), 1));
    assertEquals(DataLinkState.DL_INIT, b.m.state());
  }

  @Test
  void shouldKeepLinkUpWhenLateDuplicateInitFcOfSameTrainingArrives() {
    End a = new End(true, 1);
    End b = new End(true, 2);
    a.enable(0);
    InitFc firstFromA = (InitFc) a.out.peek();
    b.enable(0);
    long now = exchange(a, b, 0);
    int linkUps = 0;
    for (int x : b.actionLog) {
      linkUps += has(x, LINK_UP) ? 1 : 0;
    }

    int actions = b.receive(firstFromA, now + 1); // delayed copy of a's very first InitFC
    assertFalse(has(actions, LINK_DOWN));
    assertFalse(has(actions, TAKE_PARTNER_CREDITS));
    assertEquals(DataLinkState.DL_ACTIVE, b.m.state());
    exchange(a, b, now + 1); // whatever b answered must not disturb a either
    assertEquals(DataLinkState.DL_ACTIVE, a.m.state());
    assertEquals(DataLinkState.DL_ACTIVE, b.m.state());
    assertFalse(has(a.anyActions(), LINK_DOWN));
    assertFalse(has(b.anyActions(), LINK_DOWN));
    int linkUpsAfter = 0;
    for (int x : b.actionLog) {
      linkUpsAfter += has(x, LINK_UP) ? 1 : 0;
    }
    assertEquals(linkUps, linkUpsAfter);
  }

  @Test
  void shouldDropAndRetrainWhenInitFcOfNewTrainingArrivesWhileUp() {
    End a = new End(true, 1);
    End b = new End(true, 2);
    long now = trainUp(a, b, 0);
    long oldTraining = a.m.training();

    // b's port restarted (a new incarnation) and trains again without a PhysicalDown.
    End b2 = new End(true, 3);
    b2.enable(now);
    int actions = deliver(b2, a, now + 1);
    assertTrue(has(actions, LINK_DOWN));
    assertTrue(has(actions, TAKE_PARTNER_CREDITS));
    assertTrue(has(actions, SEND_INIT));
    assertFalse(has(actions, LINK_UP));
    assertEquals(DataLinkState.DL_INIT, a.m.state());
    assertNotEquals(oldTraining, a.m.training());
    assertEquals(b2.m.training(), a.m.partnerTraining());

    exchange(a, b2, now + 1);
    assertEquals(DataLinkState.DL_ACTIVE, a.m.state());
    assertEquals(DataLinkState.DL_ACTIVE, b2.m.state());
  }

  @Test
  void shouldTimeOutActiveLinkWhenNoDllpArrivesForDllpTimeout() {
    End a = new End(true, 1);
    End b = new End(true, 2);
    long now = trainUp(a, b, 0); // a last received at `now`
    long timeout = TIMERS.dllpTimeout().toNanos();
    int atLimit = a.tick(now + timeout);
    assertFalse(has(atLimit, LINK_DOWN), "exactly at the timeout is not yet late");
    int late = a.tick(now + timeout + 1);
    assertEquals(LINK_DOWN | TIMED_OUT, late);
    assertEquals(DataLinkState.DL_INACTIVE, a.m.state());
    assertTrue(a.m.enabled());
    // Enabled and inactive: it tries again after the retry interval.
    assertEquals(0, a.tick(now + timeout + 1 + TIMERS.retryInterval().toNanos() - 1));
    assertEquals(SEND_INIT, a.tick(now + timeout + 1 + TIMERS.retryInterval().toNanos()));
    assertEquals(DataLinkState.DL_INIT, a.m.state());
  }

  @Test
  void shouldStayUpThroughSilenceButStillAskForKeepalivesWhenSilenceIsIgnored() {
    End a = new End(true, 1);
    End b = new End(true, 2);
    long now = trainUp(a, b, 0);
    a.m.ignoreSilence(); // under the model-time kernel: a stalled JVM is not a dead partner
    long late = now + 10 * TIMERS.dllpTimeout().toNanos();
    int actions = a.tick(late);
    assertFalse(has(actions, LINK_DOWN));
    assertTrue(has(actions, SEND_UPDATE), "it still sends its own keepalives");
    assertEquals(DataLinkState.DL_ACTIVE, a.m.state());
  }

  @Test
  void shouldStayUpWhenDllpsOrTlpsKeepArriving() {
    End a = new End(true, 1);
    End b = new End(true, 2);
    long now = trainUp(a, b, 0);
    a.receive(new UpdateFc(BUFFERS, 0), now + 1000 * MS);
    assertFalse(has(a.tick(now + 2000 * MS), LINK_DOWN));
    a.m.onTlpReceived(now + 2400 * MS);
    assertFalse(has(a.tick(now + 3800 * MS), LINK_DOWN));
    assertEquals(DataLinkState.DL_ACTIVE, a.m.state());
    assertTrue(has(a.tick(now + 3900 * MS + 1), TIMED_OUT));
  }

  @Test
  void shouldTimeOutWhenLinkIsOnlyProtected() {
    End a = new End(false, 1);
    End b = new End(false, 2);
    a.enable(0);
    b.enable(0);
    long now = exchange(a, b, 0);
    assertEquals(DataLinkState.DL_PROTECTED, a.m.state());
    assertEquals(LINK_DOWN | TIMED_OUT, a.tick(now + TIMERS.dllpTimeout().toNanos() + 1));
  }

  @Test
  void shouldRequestKeepaliveWhenIdleForKeepaliveInterval() {
    End a = new End(true, 1);
    End b = new End(true, 2);
    long now = trainUp(a, b, 0);
    a.m.onSent(now); // the last thing a sent
    long keepalive = TIMERS.keepalive().toNanos();
    assertEquals(0, a.tick(now + keepalive - 1));
    assertEquals(SEND_UPDATE, a.tick(now + keepalive));
    // The harness sent it at now + keepalive: the next is due a full interval later.
    assertEquals(0, a.tick(now + keepalive + keepalive / 2));
    assertEquals(SEND_UPDATE, a.tick(now + 2 * keepalive));
  }

  @Test
  void shouldNotRequestKeepaliveWhenTrafficWasSentRecently() {
    End a = new End(true, 1);
    End b = new End(true, 2);
    long now = trainUp(a, b, 0);
    a.m.onSent(now + 90 * MS); // a TLP went out
    assertEquals(0, a.tick(now + 150 * MS));
    assertEquals(SEND_UPDATE, a.tick(now + 190 * MS));
  }

  @Test
  void shouldKeepTrainingAndTakeNothingDownWhenThePartnerAnsweredButItsProofIsLate() {
    End a = new End(true, 1);
    End b = new End(true, 2);
    a.enable(0);
    b.enable(0);
    b.out.clear(); // b's first InitFC is lost: a learns b's attempt from b's answer below
    deliver(a, b, 1); // b takes a's credits and answers with its InitFC, which shows it has a's
    deliver(b, a, 2); // a has b's credits and knows b has its own: a is up
    assertTrue(a.m.isUp());
    a.out.clear(); // ...but the InitFC that would show b the same never arrives (a JVM slow to start)
    long initTimeout = TIMERS.initTimeout().toNanos();
    assertEquals(SEND_INIT, b.tick(initTimeout + 1));
    assertEquals(DataLinkState.DL_INIT, b.m.state()); // b answered... a answered b: the attempt goes on
    deliver(b, a, initTimeout + 2); // the same attempt again: a, up, answers with an UpdateFC
    deliver(a, b, initTimeout + 3);
    assertTrue(b.m.isUp());
    assertFalse(has(a.anyActions(), LINK_DOWN), "a's link never went down");
    assertFalse(has(b.anyActions(), LINK_DOWN));
  }

  @Test
  void shouldResendInitFcAndThenGiveUpWhenPartnerNeverAnswers() {
    End a = new End(true, 1);
    a.enable(0);
    long first = a.m.training();
    assertEquals(SEND_INIT, a.tick(50 * MS));
    assertEquals(0, a.tick(60 * MS));
    assertEquals(SEND_INIT, a.tick(100 * MS));
    long initTimeout = TIMERS.initTimeout().toNanos();
    a.tick(initTimeout);
    assertEquals(DataLinkState.DL_INIT, a.m.state()); // exactly at the timeout it still trains
    assertEquals(0, a.tick(initTimeout + 1)); // gives up quietly
    assertEquals(DataLinkState.DL_INACTIVE, a.m.state());
    assertFalse(has(a.anyActions(), LINK_DOWN)); // it never was up
    assertEquals(SEND_INIT, a.tick(initTimeout + 1 + TIMERS.retryInterval().toNanos()));
    assertEquals(first + 1, a.m.training()); // a fresh attempt
  }

  @Test
  void shouldReportLinkDownAndPhysicalDownWhenDisabledWhileUp() {
    End a = new End(true, 1);
    End b = new End(true, 2);
    long now = trainUp(a, b, 0);
    assertEquals(LINK_DOWN | SEND_PHYSICAL_DOWN, a.disable(now + 1));
    assertEquals(DataLinkState.DL_INACTIVE, a.m.state());
    assertFalse(a.m.enabled());
    assertFalse(a.m.mayReceive());
    // The partner hears of it and goes down too.
    assertEquals(LINK_DOWN, deliver(a, b, now + 2));
    assertEquals(DataLinkState.DL_INACTIVE, b.m.state());
  }

  @Test
  void shouldGoDownAndTrainAgainAfterTheRetryIntervalWhenTheReplayLimitIsPassed() {
    End a = new End(true, 1);
    End b = new End(true, 2);
    long now = trainUp(a, b, 0);
    assertEquals(LINK_DOWN | SEND_PHYSICAL_DOWN, a.m.retrain(now + 1));
    assertEquals(DataLinkState.DL_INACTIVE, a.m.state());
    assertTrue(a.m.enabled(), "unlike a disable, the link is still wanted");
    assertEquals(0, a.m.tick(now + 2));
    assertTrue(has(a.m.tick(now + 1 + TIMERS.retryInterval().toNanos()), SEND_INIT));
    assertEquals(DataLinkState.DL_INIT, a.m.state());
  }

  @Test
  void shouldOnlySendPhysicalDownWhenDisabledBeforeComingUp() {
    End a = new End(true, 1);
    a.enable(0);
    assertEquals(SEND_PHYSICAL_DOWN, a.disable(1));
    assertEquals(DataLinkState.DL_INACTIVE, a.m.state());
  }

  @Test
  void shouldNeverRetrainWhenDisabledUntilEnabled() {
    End a = new End(true, 1);
    End b = new End(true, 2);
    long now = trainUp(a, b, 0);
    a.disable(now + 1);
    deliver(a, b, now + 2); // b goes down, stays enabled, retries
    long retry = TIMERS.retryInterval().toNanos();
    assertEquals(SEND_INIT, b.tick(now + 2 + retry));
    // a ignores b's InitFCs and its own timers while disabled, however long it waits.
    for (int i = 0; i < 50; i++) {
      long t = now + 2 + retry + i * 100 * MS;
      assertEquals(0, a.tick(t));
      while (!b.out.isEmpty()) {
        assertEquals(0, deliver(b, a, t));
      }
      b.tick(t + 50 * MS);
      assertEquals(DataLinkState.DL_INACTIVE, a.m.state());
    }
    assertEquals(0, a.m.activate(now + 10_000 * MS));

    long later = now + 10_000 * MS;
    assertEquals(SEND_INIT, a.enable(later));
    assertTrue(a.m.enabled());
    exchange(a, b, later);
    assertEquals(DataLinkState.DL_ACTIVE, a.m.state());
    assertEquals(DataLinkState.DL_ACTIVE, b.m.state());
  }

  @Test
  void shouldNotRestartTrainingWhenEnabledWhileAlreadyTraining() {
    End a = new End(true, 1);
    a.enable(0);
    long t = a.m.training();
    assertEquals(0, a.enable(1));
    assertEquals(t, a.m.training());
  }

  @Test
  void shouldNameAttemptsDistinctlyPerIncarnationWhenSeedsDiffer() {
    LinkStateMachine m1 = new LinkStateMachine(TIMERS, true, 7);
    LinkStateMachine m2 = new LinkStateMachine(TIMERS, true, 8);
    m1.enable(0);
    m2.enable(0);
    assertEquals((7L << 20) + 1, m1.training());
    assertEquals((8L << 20) + 1, m2.training());
  }

  @Test
  void shouldTickAtHalfTheShortestTimerWhenAskedForTickInterval() {
    assertEquals(Duration.ofMillis(25), TIMERS.tickInterval());
  }
}
