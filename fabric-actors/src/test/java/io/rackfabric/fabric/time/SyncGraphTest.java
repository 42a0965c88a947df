package io.rackfabric.fabric.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SyncGraphTest {

  private static final long NONE = Long.MAX_VALUE;

  /** a -- b -- c, each link 10 ns each way. */
  private static SyncGraph chain() {
    SyncGraph g = new SyncGraph();
    g.channel("a", "b", 10);
    g.channel("b", "a", 10);
    g.channel("b", "c", 10);
    g.channel("c", "b", 10);
    return g;
  }

  @Test
  void shouldLetEachComponentRunUpToWhatItsNeighboursCouldSendWhenEventsArePending() {
    SyncGraph g = chain();
    long[] safe = g.safeTimes(new long[] {100, NONE, NONE});
    // a's own event does not hold a back, but its echo through b does: 100 + 10 + 10.
    assertEquals(120, safe[g.indexOf("a")]);
    assertEquals(110, safe[g.indexOf("b")]);
    assertEquals(120, safe[g.indexOf("c")]);
  }

  @Test
  void shouldTakeTheEarliestSourceWhenSeveralArePending() {
    SyncGraph g = chain();
    long[] safe = g.safeTimes(new long[] {100, NONE, 105});
    assertEquals(110, safe[g.indexOf("b")]); // a's event reaches b at 110, c's at 115
    assertEquals(120, safe[g.indexOf("a")]); // a's own echo (120) before c's (125)
    assertEquals(120, safe[g.indexOf("c")]); // a's event through b (120) before c's own echo (125)
  }

  @Test
  void shouldBeUnboundedWhenNothingIsPendingAnywhere() {
    SyncGraph g = chain();
    long[] safe = g.safeTimes(new long[] {NONE, NONE, NONE});
    for (long s : safe) {
      assertEquals(NONE, s);
    }
  }

  @Test
  void shouldFollowTheLookaheadOfEachChannelWhenTheyDiffer() {
    SyncGraph g = new SyncGraph();
    g.channel("port1", "port2", 150); // across a switch chip
    g.channel("port2", "port1", 150);
    g.channel("port2", "ep", 8); // a link
    g.channel("ep", "port2", 8);
    long[] safe = g.safeTimes(new long[] {0, NONE, NONE});
    assertEquals(150, safe[g.indexOf("port2")]);
    assertEquals(158, safe[g.indexOf("ep")]);
    assertEquals(300, safe[g.indexOf("port1")]);
  }

  @Test
  void shouldKeepTheSmallerLookaheadWhenAChannelIsDeclaredTwice() {
    SyncGraph g = new SyncGraph();
    g.channel("a", "b", 50);
    g.channel("a", "b", 20);
    assertEquals(20, g.safeTimes(new long[] {0, NONE})[g.indexOf("b")]);
  }

  @Test
  void shouldFindACycleOfZeroLookaheadWhenOneExists() {
    SyncGraph g = new SyncGraph();
    g.channel("a", "b", 0);
    g.channel("b", "c", 5);
    g.channel("c", "a", 0);
    assertTrue(g.zeroCycle().isEmpty());
    g.channel("b", "a", 0);
    List<String> cycle = g.zeroCycle();
    assertEquals(2, cycle.size());
    assertTrue(cycle.containsAll(List.of("a", "b")));
  }

  @Test
  void shouldRefuseANegativeLookaheadWhenDeclared() {
    SyncGraph g = new SyncGraph();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> g.channel("a", "b", -1));
    assertTrue(e.getMessage().contains("-1"), e.getMessage());
  }
}
