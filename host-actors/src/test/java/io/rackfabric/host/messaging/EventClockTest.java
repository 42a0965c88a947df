package io.rackfabric.host.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventClockTest {

  private long wall = 1_000;
  private final EventClock clock = new EventClock(() -> wall, 1.0);
  private final List<String> ran = new ArrayList<>();

  private Runnable record(String name) {
    return () -> ran.add(name + "@" + clock.now());
  }

  @Test
  void shouldRunDueTimersAtTheirOwnDeadlinesBeforeAnEventThatPassesThem() {
    clock.schedule(300, record("b"));
    clock.schedule(100, record("a"));
    clock.schedule(900, record("late"));
    clock.advanceTo(500);
    assertEquals(List.of("a@100", "b@300"), ran);
    assertEquals(500, clock.now());
    assertEquals(1, clock.pendingTimers());
  }

  @Test
  void shouldRunTimersAtEqualDeadlinesInTheOrderScheduled() {
    clock.schedule(50, record("first"));
    clock.schedule(50, record("second"));
    clock.advanceTo(50);
    assertEquals(List.of("first@50", "second@50"), ran);
  }

  @Test
  void shouldNeverMoveBackWhenAnEventCarriesAnEarlierTime() {
    clock.advanceTo(1_000);
    clock.advanceTo(400);
    assertEquals(1_000, clock.now());
    clock.schedule(0, record("now"));
    clock.advanceTo(0);
    assertEquals(List.of("now@1000"), ran);
  }

  @Test
  void shouldLeaveTimersAloneWhileActivityIsWithinTheGrace() {
    clock.schedule(100, record("t"));
    wall += 9_999;
    assertEquals(0, clock.runIdle(10_000, () -> true));
    assertTrue(ran.isEmpty());
  }

  @Test
  void shouldRunOnToTheFirstTimerThatMakesProgressWhenIdleForTheGrace() {
    clock.schedule(100, record("quiet"));
    clock.schedule(200, record("sends"));
    clock.schedule(300, record("next"));
    wall += 10_000;
    int[] sent = {0};
    assertEquals(2, clock.runIdle(10_000, () -> ran.size() >= 2 && ++sent[0] > 0));
    assertEquals(List.of("quiet@100", "sends@200"), ran);
    assertEquals(200, clock.now());
    // Progress restarted the grace: the next timer waits for another one.
    wall += 5_000;
    assertEquals(0, clock.runIdle(10_000, () -> true));
    wall += 5_000;
    assertEquals(1, clock.runIdle(10_000, () -> true));
    assertEquals("next@300", ran.get(2));
    assertEquals(2, clock.idleRuns());
  }

  @Test
  void shouldNotRunOnFurtherThanWallTimeAllowsThroughTheDilationFactor() {
    EventClock slow = new EventClock(() -> wall, 1_000.0); // a model us lasts a wall ms
    List<Long> at = new ArrayList<>();
    slow.schedule(50_000, () -> at.add(slow.now()));
    wall += 20_000_000; // 20 ms of wall time: 20 us of model time
    assertEquals(0, slow.runIdle(10_000_000, () -> false));
    wall += 30_000_000;
    assertEquals(1, slow.runIdle(10_000_000, () -> false));
    assertEquals(List.of(50_000L), at);
  }

  @Test
  void shouldCountAnyActivityAsTheStartOfTheGrace() {
    clock.schedule(100, record("t"));
    wall += 9_000;
    clock.touch();
    wall += 9_000;
    assertEquals(0, clock.runIdle(10_000, () -> true), "touched 9 us ago");
    wall += 1_000;
    assertEquals(1, clock.runIdle(10_000, () -> true));
  }

  @Test
  void shouldRefuseANegativeDelayAndANonPositiveDilation() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> clock.schedule(-1, () -> { }))
        .getMessage().contains("delayNs=-1"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new EventClock(() -> 0, 0))
        .getMessage().contains("tdf=0.0"));
  }
}
