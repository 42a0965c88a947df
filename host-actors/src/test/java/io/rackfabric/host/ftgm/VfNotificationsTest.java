package io.rackfabric.host.ftgm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class VfNotificationsTest {

  @Test
  void shouldTellOneOwnerAtATimeEachAfterThePreviousPortReopenedWhenSeveralVfsWait() {
    VfNotifications lane = new VfNotifications();
    lane.posted(0, 1_000);
    lane.posted(3, 1_000);

    assertEquals(new VfNotifications.Next(0, 1_000), lane.next());
    assertNull(lane.next(), "the second waits while the first handler runs");
    assertFalse(lane.idle());

    lane.reopened(901_000);
    assertEquals(new VfNotifications.Next(3, 901_000), lane.next());
    lane.reopened(1_801_000);
    assertNull(lane.next());
    assertTrue(lane.idle());
    assertEquals(List.of(901_000L, 1_801_000L), lane.takeReopenings());
    assertEquals(List.of(), lane.takeReopenings(), "taken once");
  }

  @Test
  void shouldTellAtThePostWhenAReopeningCameEarlierThanIt() {
    VfNotifications lane = new VfNotifications();
    lane.reopened(500); // a late answer of an earlier recovery
    lane.posted(1, 2_000);
    assertEquals(new VfNotifications.Next(1, 2_000), lane.next());
  }

  @Test
  void shouldBeIdleWithNothingToTellWhenNothingWasPosted() {
    VfNotifications lane = new VfNotifications();
    assertTrue(lane.idle());
    assertNull(lane.next());
  }
}
