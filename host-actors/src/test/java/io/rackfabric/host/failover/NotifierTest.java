package io.rackfabric.host.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.failover.Notifier.Send;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The MH's notification round, driven step by step with model times. */
class NotifierTest {

  // ---- unicast: one by one, each after the previous acknowledgement

  @Test
  void shouldNotifyOneHostAtATimeInOrderWhenUnicast() {
    Notifier n = new Notifier(NotificationMode.UNICAST, List.of(3, 1, 2));

    assertEquals(List.of(new Send(3, 1_000)), n.start(1_000));
    assertEquals(Set.of(3), n.waiting());
    assertEquals(List.of(new Send(1, 10_500)), n.acknowledged(3, 10_500));
    assertEquals(Set.of(1), n.waiting());
    assertEquals(List.of(new Send(2, 20_250)), n.acknowledged(1, 20_250));
    assertFalse(n.completed());
    assertEquals(-1, n.completedAt());

    assertEquals(List.of(), n.acknowledged(2, 29_900));

    assertTrue(n.completed());
    assertEquals(29_900, n.completedAt());
    assertEquals(Set.of(), n.waiting());
    assertEquals(NotificationMode.UNICAST, n.mode());
  }

  @Test
  void shouldIgnoreAcksOfHostsNotAwaitedWhenUnicast() {
    Notifier n = new Notifier(NotificationMode.UNICAST, List.of(1, 2, 3));
    n.start(0);

    // a host not yet notified, one not in the round at all, and a repeat
    assertEquals(List.of(), n.acknowledged(2, 100));
    assertEquals(List.of(), n.acknowledged(7, 150));
    assertEquals(Set.of(1), n.waiting());
    assertEquals(List.of(new Send(2, 200)), n.acknowledged(1, 200));
    assertEquals(List.of(), n.acknowledged(1, 250), "a duplicate of CH1's ack");
    assertEquals(Set.of(2), n.waiting());
    assertEquals(List.of(new Send(3, 300)), n.acknowledged(2, 300));
    assertEquals(List.of(), n.acknowledged(3, 400));
    assertEquals(400, n.completedAt());

    // late acknowledgements after the end change nothing
    assertEquals(List.of(), n.acknowledged(3, 900));
    assertEquals(List.of(), n.acknowledged(1, 950));
    assertEquals(400, n.completedAt());
  }

  @Test
  void shouldCompleteAtTheOnlyAckWhenOneHost() {
    Notifier n = new Notifier(NotificationMode.UNICAST, List.of(5));
    assertEquals(List.of(new Send(5, 7)), n.start(7));
    assertFalse(n.completed());
    assertEquals(List.of(), n.acknowledged(5, 8_507));
    assertEquals(8_507, n.completedAt());
  }

  // ---- multicast: one write, every acknowledgement

  @Test
  void shouldSendOneWriteToEveryHostAndWaitForAllAcksWhenMulticast() {
    Notifier n = new Notifier(NotificationMode.MULTICAST, List.of(1, 2, 3, 4));

    assertEquals(List.of(new Send(Notifier.EVERY_HOST, 2_000)), n.start(2_000));
    assertEquals(Set.of(1, 2, 3, 4), n.waiting());
    // acknowledgements in any order, none causing another write
    assertEquals(List.of(), n.acknowledged(3, 11_000));
    assertEquals(List.of(), n.acknowledged(1, 11_100));
    assertEquals(List.of(), n.acknowledged(3, 11_150), "a duplicate");
    assertEquals(List.of(), n.acknowledged(9, 11_160), "not in the round");
    assertEquals(List.of(), n.acknowledged(4, 11_200));
    assertFalse(n.completed());
    assertEquals(Set.of(2), n.waiting());

    assertEquals(List.of(), n.acknowledged(2, 12_000));

    assertTrue(n.completed());
    assertEquals(12_000, n.completedAt());
    assertEquals(NotificationMode.MULTICAST, n.mode());
  }

  @Test
  void shouldIgnoreAcksWhenNotStarted() {
    Notifier n = new Notifier(NotificationMode.MULTICAST, List.of(1, 2));
    assertEquals(List.of(), n.acknowledged(1, 5));
    assertFalse(n.completed());
    n.start(10);
    assertEquals(Set.of(1, 2), n.waiting());
  }

  // ---- hosts given up on

  @Test
  void shouldMoveOnToTheNextHostWhenOneIsAbandonedWhenUnicast() {
    Notifier n = new Notifier(NotificationMode.UNICAST, List.of(1, 2, 3));
    n.start(0);
    n.acknowledged(1, 100);

    assertEquals(List.of(new Send(3, 500)), n.abandon(2, 500));
    assertEquals(List.of(), n.acknowledged(2, 600), "too late: CH2 was given up on");
    assertEquals(List.of(), n.abandon(2, 650), "not awaited any more");
    assertEquals(List.of(), n.acknowledged(3, 700));

    assertTrue(n.completed());
    assertEquals(700, n.completedAt());
    assertEquals(Set.of(2), n.abandoned());
  }

  @Test
  void shouldEndAtTheLastAbandonWhenMulticast() {
    Notifier n = new Notifier(NotificationMode.MULTICAST, List.of(1, 2, 3));
    n.start(0);
    n.acknowledged(2, 100);
    assertEquals(List.of(), n.abandon(1, 300));
    assertFalse(n.completed());
    assertEquals(List.of(), n.abandon(3, 300));

    assertEquals(300, n.completedAt());
    assertEquals(Set.of(1, 3), n.abandoned());
    assertEquals(Set.of(), n.waiting());
  }

  @Test
  void shouldAbandonNothingWhenTheHostIsNotAwaited() {
    Notifier n = new Notifier(NotificationMode.UNICAST, List.of(1, 2));
    n.start(0);
    assertEquals(List.of(), n.abandon(2, 10), "not notified yet");
    assertEquals(Set.of(), n.abandoned());
    assertEquals(Set.of(1), n.waiting());
  }

  @Test
  void shouldRefuseWhenNoHosts() {
    for (NotificationMode mode : NotificationMode.values()) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> new Notifier(mode, List.of()));
      assertEquals("no compute hosts to notify", e.getMessage());
    }
  }
}
