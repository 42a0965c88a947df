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
}
