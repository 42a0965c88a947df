package io.rackfabric.fabric.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RestartsTest {

  @Test
  void shouldHoldBeforeTheEarliestRestartWhileMembersAreAwaited() {
    Restarts r = new Restarts();
    assertEquals(900, r.holdBefore(900));
    r.expect("b", 500, 7);
    r.expect("a", 700, 2);
    assertEquals(List.of("a", "b"), r.awaited(), "by name");
    assertEquals(500, r.holdBefore(900));
    assertEquals(300, r.holdBefore(300), "a driver's earlier hold stays");
    Restarts.Return back = r.rejoined("b", 4, 450);
    assertEquals(new Restarts.Return(500, 7), back);
    assertNull(r.expectedAt("b"));
    assertEquals(700, r.holdBefore(900));
    r.rejoined("a", 1, 600);
    assertTrue(r.noneAwaited());
    assertEquals(Long.MAX_VALUE, r.holdBefore(Long.MAX_VALUE));
    assertEquals(5, r.pastStragglers(), "the replaced incarnations' stragglers add up");
    assertEquals(600, r.pastReached());
  }

  @Test
  void shouldRefuseToExpectBackAMemberThatRunsOrNeverJoinedOrHadGonePastTheRestart() {
    SyncMember left = new SyncMember(0, null, new int[0]);
    left.running = false;
    left.now = 400;
    SyncMember running = new SyncMember(1, null, new int[0]);
    java.util.Map<String, SyncMember> members = java.util.Map.of("left", left, "running", running);
    assertNull(Restarts.refusal(List.of("left"), 500, members, 450));
    assertEquals("no component named ghost ever joined, so none can come back",
        Restarts.refusal(List.of("ghost"), 500, members, 450));
    assertEquals("the component named running is still running: only one that left comes back",
        Restarts.refusal(List.of("running"), 500, members, 450));
    assertEquals("left cannot come back at 300 ns: it had handled an event at 400 ns",
        Restarts.refusal(List.of("left"), 300, members, 300));
    assertEquals("the rack has reached 600 ns already: nothing comes back earlier, at 500 ns",
        Restarts.refusal(List.of("left"), 500, members, 600));
  }
}
