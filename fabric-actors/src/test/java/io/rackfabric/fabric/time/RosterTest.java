package io.rackfabric.fabric.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RosterTest {

  private static SyncMember member(int index, long next, long nextBusy, long now, long stragglers) {
    SyncMember m = new SyncMember(index, null, new int[0]);
    m.next = next;
    m.nextBusy = nextBusy;
    m.now = now;
    m.stragglers = stragglers;
    return m;
  }

  @Test
  void shouldFindAMemberByNameAndByGraphIndexWhenItJoined() {
    Roster roster = new Roster();
    SyncMember c = member(5, 0, 0, 0, 0);
    roster.put("c", c);
    assertSame(c, roster.get("c"));
    assertSame(c, roster.at(5));
    assertNull(roster.at(2), "the graph names it, nobody joined there");
    assertNull(roster.at(99));
    assertTrue(roster.joinedAll(List.of("c")));
    assertFalse(roster.joinedAll(List.of("c", "d")));
  }

  @Test
  void shouldAddUpOnlyRunningMembersWhenOneLeft() {
    Roster roster = new Roster();
    roster.put("a", member(0, 300, 400, 250, 1));
    SyncMember b = member(1, 100, 100, 900, 2);
    roster.put("b", b);
    b.running = false;
    assertEquals(1, roster.running());
    assertEquals(300, roster.earliest(), "b left: its events are no one's");
    assertEquals(400, roster.earliestBusy());
    assertEquals(900, roster.reached(0), "what a member that left had reached stays reached");
    assertEquals(1_000, roster.reached(1_000), "or what a replaced incarnation had");
    assertEquals(7, roster.stragglers(4));
  }

  @Test
  void shouldReplaceTheIncarnationWhenANameJoinsAgain() {
    Roster roster = new Roster();
    SyncMember first = member(0, 0, 0, 0, 0);
    roster.put("a", first);
    first.running = false;
    SyncMember second = member(0, 0, 0, 0, 0);
    roster.put("a", second);
    assertSame(second, roster.get("a"));
    assertSame(second, roster.at(0));
    assertEquals(1, roster.running());
  }
}
