package io.rackfabric.fabric.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class InflowsTest {

  @Test
  void shouldBalanceExactlyWhenEverySenderLives() {
    Inflows in = new Inflows();
    in.ensure(3);
    in.add(2, 5);
    in.add(2, 2);
    assertEquals(7, in.sentTo(2));
    assertFalse(in.balanced(2, 6, 0), "one still in flight");
    assertTrue(in.balanced(2, 7, 0));
    assertFalse(in.balanced(2, 8, 0), "more than was sent is not balanced while every sender lives");
  }

  @Test
  void shouldBalanceByAtLeastWhenASenderDiedUnannouncedAndExactlyAgainWhenItIsRetired() {
    Inflows in = new Inflows();
    in.ensure(2);
    in.add(1, 4); // a live sender
    in.add(1, 6); // the sender that dies
    in.senderDied(1, 6);
    assertTrue(in.balanced(1, 4, 0), "the dead sender's 6 may be lost");
    assertTrue(in.balanced(1, 9, 0), "or may still arrive");
    assertFalse(in.balanced(1, 3, 0), "the live sender's 4 must arrive");
    in.senderRetired(1, 6);
    assertFalse(in.balanced(1, 9, 0));
    assertTrue(in.balanced(1, 10, 0));
  }

  @Test
  void shouldLeaveAnEarlierIncarnationsShareOutWhenAComponentRestarted() {
    Inflows in = new Inflows();
    in.ensure(1);
    in.add(0, 10);
    in.add(0, 3);
    assertTrue(in.balanced(0, 3, 10), "the new incarnation counts from its start");
  }

  @Test
  void shouldKeepCountsWhenItGrows() {
    Inflows in = new Inflows();
    in.ensure(1);
    in.add(0, 2);
    in.ensure(40);
    in.add(39, 1);
    assertEquals(2, in.sentTo(0));
    assertEquals(1, in.sentTo(39));
  }
}
