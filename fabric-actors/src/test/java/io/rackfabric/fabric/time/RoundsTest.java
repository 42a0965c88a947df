package io.rackfabric.fabric.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The decision of a round, from members and a graph built by hand (the refs are never used). */
class RoundsTest {

  private final SyncGraph graph = new SyncGraph();
  private final Roster roster = new Roster();

  private SyncMember member(String name, long next, long nextBusy) {
    SyncMember m = new SyncMember(graph.add(name), null, new int[0]);
    m.next = next;
    m.nextBusy = nextBusy;
    roster.put(name, m);
    return m;
  }

  private void bothWays(String one, String other, long lookaheadNs) {
    graph.channel(one, other, lookaheadNs);
    graph.channel(other, one, lookaheadNs);
  }

  @Test
  void shouldGrantEachMemberUpToItsSafeTimeCappedByTheHold() {
    SyncMember a = member("a", 100, 100);
    SyncMember b = member("b", 105, 105);
    bothWays("a", "b", 10);
    Rounds rounds = new Rounds();

    List<SyncBook.Granted> grants = rounds.next(graph, roster, Long.MAX_VALUE, 100);
    assertEquals(List.of(115L, 110L), grants.stream().map(SyncBook.Granted::until).toList());
    assertTrue(a.outstanding && b.outstanding, "each granted member owes a report");
    assertEquals(0, a.grantRound);

    a.outstanding = false;
    b.outstanding = false;
    List<SyncBook.Granted> held = rounds.next(graph, roster, 108, 100);
    assertEquals(List.of(108L, 108L), held.stream().map(SyncBook.Granted::until).toList());
    assertEquals(1, a.grantRound, "the next round");
    assertEquals(2, rounds.rounds());
    assertEquals(4, rounds.grants());
  }

  @Test
  void shouldLetTheMemberWhoseNameSortsFirstGoOnWhenOnlyLookaheadZeroLinksThem() {
    SyncMember b = member("b", 50, 50);
    SyncMember a = member("a", 50, 50);
    bothWays("a", "b", 0);
    Rounds rounds = new Rounds();

    List<SyncBook.Granted> grants = rounds.next(graph, roster, Long.MAX_VALUE, 50);
    assertEquals(1, grants.size());
    assertTrue(a.outstanding, "a sorts first, whichever joined first");
    assertEquals(false, b.outstanding);
    assertEquals(51, grants.get(0).until(), "its events at 50 only");
  }

  @Test
  void shouldRunBackgroundEventsOnlyUpToTheBusyFrontierWhenReleased() {
    Rounds rounds = new Rounds();
    assertEquals(Long.MIN_VALUE, rounds.backgroundLimit(Long.MAX_VALUE), "no busy work yet: none");
    assertEquals(700, rounds.backgroundLimit(700), "held: up to the hold");
    member("a", 300, 300);
    rounds.next(graph, roster, Long.MAX_VALUE, 300);
    assertEquals(301, rounds.backgroundLimit(Long.MAX_VALUE), "up to the busy frontier, inclusive");
  }

  @Test
  void shouldGrantNothingWhenOnlyABackgroundEventPastTheFrontierIsPending() {
    SyncMember a = member("a", 400, Long.MAX_VALUE); // a heartbeat, nothing busy anywhere
    Rounds rounds = new Rounds();
    assertTrue(rounds.next(graph, roster, Long.MAX_VALUE, Long.MAX_VALUE).isEmpty());
    assertEquals(false, a.outstanding);
    assertEquals(0, rounds.rounds());
  }
}
