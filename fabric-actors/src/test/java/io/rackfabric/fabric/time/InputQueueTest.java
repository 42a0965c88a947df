package io.rackfabric.fabric.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class InputQueueTest {

  private static List<String> drain(InputQueue<String> q, long limit) {
    List<String> out = new ArrayList<>();
    InputQueue.Entry<String> e;
    while ((e = q.pollBefore(limit)) != null) {
      out.add(e.event());
    }
    return out;
  }

  @Test
  void shouldOrderByTimeThenChannelThenArrivalWhenEventsArriveInAnyOrder() {
    InputQueue<String> q = new InputQueue<>();
    q.add(50, 2, "c2-50");
    q.add(10, 3, "c3-10");
    q.add(50, 1, "c1-50a");
    q.add(50, 1, "c1-50b");
    q.add(10, 0, "link-10");
    q.add(50, Synchronizer.SELF, "self-50");
    assertEquals(List.of("link-10", "c3-10", "self-50", "c1-50a", "c1-50b", "c2-50"), drain(q, Long.MAX_VALUE));
  }

  @Test
  void shouldGiveTheSameOrderWhenTwoChannelsInterleaveDifferently() {
    InputQueue<String> a = new InputQueue<>();
    a.add(100, 1, "x1");
    a.add(100, 2, "y1");
    a.add(100, 1, "x2");
    InputQueue<String> b = new InputQueue<>();
    b.add(100, 2, "y1");
    b.add(100, 1, "x1");
    b.add(100, 1, "x2");
    assertEquals(drain(a, Long.MAX_VALUE), drain(b, Long.MAX_VALUE));
  }

  @Test
  void shouldHoldEventsAtOrAfterTheLimitWhenPolled() {
    InputQueue<String> q = new InputQueue<>();
    q.add(10, 0, "a");
    q.add(20, 0, "b");
    assertEquals(List.of("a"), drain(q, 20));
    assertEquals(20, q.nextTime());
    assertNull(q.pollBefore(20));
    assertEquals(1, q.size());
    assertEquals(List.of("b"), drain(q, 21));
    assertEquals(Long.MAX_VALUE, q.nextTime());
  }

  @Test
  void shouldStopAtABackgroundEventPastItsLimitAndKeepTheEventsAfterItWhenPolled() {
    InputQueue<String> q = new InputQueue<>();
    q.add(10, 0, "busy-10");
    q.addBackground(20, Synchronizer.SELF, "timer-20");
    q.add(30, 0, "busy-30");
    assertEquals(10, q.nextBusyTime());
    assertEquals("busy-10", q.pollBefore(100, 15).event());
    assertEquals(20, q.nextTime());
    assertEquals(30, q.nextBusyTime(), "the timer does not count as busy");
    assertNull(q.pollBefore(100, 15), "the timer is past its limit, and busy-30 waits behind it");
    assertEquals("timer-20", q.pollBefore(100, 21).event());
    assertEquals("busy-30", q.pollBefore(100, 21).event());
    q.addBackground(40, Synchronizer.SELF, "timer-40");
    assertEquals(Long.MAX_VALUE, q.nextBusyTime());
    assertEquals(true, q.remove("timer-40"));
    assertEquals(Long.MAX_VALUE, q.nextTime());
  }

  @Test
  void shouldTakeBackAnEqualEventAndStopCountingItAsBackgroundWhenRemoved() {
    InputQueue<String> q = new InputQueue<>();
    q.addBackground(20, Synchronizer.SELF, "timer-20");
    assertTrue(q.remove(new String("timer-20")), "equal, though not the object queued");
    assertFalse(q.remove("timer-20"), "gone already");
    q.add(30, 0, "busy-30");
    assertEquals(30, q.nextBusyTime(), "no background event left to skip");
    assertEquals(List.of("busy-30"), drain(q, Long.MAX_VALUE));
  }

  @Test
  void shouldHandleWhatFallsInAPauseAtItsEndInItsOrderWhenDeferred() {
    InputQueue<String> q = new InputQueue<>();
    q.add(10, 0, "before");
    q.add(40, 1, "sibling-40");
    q.add(30, 0, "link-30");
    q.addBackground(50, Synchronizer.SELF, "timer-50");
    q.add(60, 0, "at-the-end");
    q.add(70, 0, "after");
    q.defer(20, 60);
    assertEquals(List.of("before", "timer-50", "link-30", "at-the-end", "sibling-40", "after"),
        drain(q, Long.MAX_VALUE), "at 60 by channel, then arrival: the timer (own), the link's two, the sibling");
  }
}
