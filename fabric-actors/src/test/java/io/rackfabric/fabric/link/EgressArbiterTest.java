package io.rackfabric.fabric.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** The egress's round-robin turn among the sources that have something to send, grant by grant. */
class EgressArbiterTest {

  private final EgressArbiter arbiter = new EgressArbiter();

  private int grant(Set<Integer> readySources) {
    int slot = arbiter.grant(s -> readySources.contains(s - 1));
    return slot < 0 ? -99 : slot - 1;
  }

  @Test
  void shouldTakeTurnsInPortOrderWhenSeveralSourcesAreReady() {
    Set<Integer> ready = Set.of(EgressArbiter.OWN, 2, 7);

    assertEquals(EgressArbiter.OWN, grant(ready), "the turn starts with the port's own TLPs");
    assertEquals(2, grant(ready));
    assertEquals(7, grant(ready));
    assertEquals(EgressArbiter.OWN, grant(ready), "and wraps around");
    assertEquals(2, grant(ready));
  }

  @Test
  void shouldSkipSourcesWithNothingToSendWhenTheirTurnComes() {
    assertEquals(2, grant(Set.of(2, 7)));
    assertEquals(7, grant(Set.of(2, 7)));
    assertEquals(2, grant(Set.of(2)), "7 has nothing: 2 again");
    assertEquals(7, grant(Set.of(2, 7)), "after 2 comes 7, not 2 a third time");
  }

  @Test
  void shouldKeepTheTurnWhenNoSourceIsReady() {
    assertEquals(5, grant(Set.of(5, 9)));
    assertEquals(-99, grant(Set.of()));
    assertEquals(9, grant(Set.of(5, 9)), "the empty poll did not move the turn");
  }

  @Test
  void shouldServePortThirtyOneThenWrapToOwnWhenAllAreReady() {
    assertEquals(31, grant(Set.of(31)));
    assertEquals(EgressArbiter.OWN, grant(Set.of(EgressArbiter.OWN, 0, 31)));
    assertEquals(0, grant(Set.of(EgressArbiter.OWN, 0, 31)));
  }

  @Test
  void shouldRefuseASourceOutsideThePortsWhenAskedForItsSlot() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EgressArbiter.slot(32));
    assertTrue(e.getMessage().contains("source=32"), e.getMessage());
    assertEquals(0, EgressArbiter.slot(EgressArbiter.OWN));
    assertEquals(32, EgressArbiter.slot(31));
  }
}
