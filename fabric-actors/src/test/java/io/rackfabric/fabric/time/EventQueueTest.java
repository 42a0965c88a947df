package io.rackfabric.fabric.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The one discrete-event queue: time order, ties as scheduled, and runs that end. */
class EventQueueTest {

  @Test
  void shouldRunEventsInTimeOrderAndTiesInScheduleOrderWhenRunUntilATime() {
    EventQueue q = new EventQueue();
    List<String> ran = new ArrayList<>();
    q.schedule(20, () -> ran.add("b@20"));
    q.schedule(10, () -> ran.add("a@10"));
    q.schedule(20, () -> ran.add("c@20"));
    q.schedule(30, () -> ran.add("d@30"));
    q.runUntil(25);
    assertEquals(List.of("a@10", "b@20", "c@20"), ran);
    assertEquals(25, q.now());
    assertEquals(30, q.nextTime());
  }

  @Test
  @Timeout(5)
  void shouldReturnWhenTheQueueEmptiesBeforeTheEndOfTime() {
    EventQueue q = new EventQueue();
    q.schedule(5, () -> { });
    q.runUntil(Long.MAX_VALUE); // an empty queue's next time is Long.MAX_VALUE too
    assertEquals(0, q.pending());
    assertFalse(q.runNext());
    assertFalse(q.runUntil(() -> false, Long.MAX_VALUE));
  }

  @Test
  void shouldStopAtTheFirstEventAfterWhichItIsDoneWhenRunUntilDone() {
    EventQueue q = new EventQueue();
    List<Long> ran = new ArrayList<>();
    for (long t = 1; t <= 5; t++) {
      long at = t;
      q.schedule(t, () -> ran.add(at));
    }
    assertTrue(q.runUntil(() -> ran.size() == 2, 100));
    assertEquals(List.of(1L, 2L), ran);
    assertEquals(2, q.now());
  }
}
