package io.rackfabric.host.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The model-time side of the check: the wakes it asks of the MH's endpoint. */
class RetransmitCheckTest {

  static final ActorTestKit testKit = ActorTestKit.create();

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  final TestProbe<MemoryEndpoint.Command> endpoint = testKit.createTestProbe();
  final TestProbe<GuestCall> calls = testKit.createTestProbe();
  final RetransmitCheck check = new RetransmitCheck(endpoint.ref(), calls.ref(), null, null, Duration.ofMillis(1));

  @Test
  void shouldAskOneWakeAtTheEarliestDeadlineWhenUnderTheKernel() {
    check.attached(true);

    check.rearm(5_000, true);
    check.rearm(5_000, true);

    assertEquals(new MemoryEndpoint.WakeGuest(calls.ref(), 5_000, 1), endpoint.receiveMessage());
    endpoint.expectNoMessage(Duration.ofMillis(50));
    assertTrue(check.underKernel());
  }

  @Test
  void shouldTakeTheStaleWakeBackWhenTheDeadlineMoves() {
    check.attached(true);
    check.rearm(5_000, true);

    check.rearm(9_000, true);

    assertEquals(new MemoryEndpoint.WakeGuest(calls.ref(), 5_000, 1), endpoint.receiveMessage());
    assertEquals(new MemoryEndpoint.CancelWake(calls.ref(), 1), endpoint.receiveMessage());
    assertEquals(new MemoryEndpoint.WakeGuest(calls.ref(), 9_000, 2), endpoint.receiveMessage());
  }

  @Test
  void shouldSpendOnlyTheCurrentWakeWhenWoken() {
    check.attached(true);
    check.rearm(5_000, true);
    check.rearm(9_000, true);

    assertFalse(check.woke(1), "the stale wake");
    assertTrue(check.woke(2));
    check.rearm(9_000, true);

    assertEquals(3, endpoint.receiveSeveralMessages(3).size());
    assertEquals(new MemoryEndpoint.WakeGuest(calls.ref(), 9_000, 3), endpoint.receiveMessage(),
        "once woken, the same deadline is asked for again");
  }
}
