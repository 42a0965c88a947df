package io.rackfabric.fabric.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A member that left the keeper (its node killed) and joins again when its node is restarted at a
 * model time, driven step by step without actors like {@link SyncBookTest}.
 */
class SyncBookRestartTest {

  private static final long NONE = Long.MAX_VALUE;

  /** a and b on one link, 10 ns each way; each sent the other {@code sent} and got them all. */
  private static SyncBook pairThatTalked(long sent) {
    SyncBook book = new SyncBook();
    assertNull(book.register("a", null, List.of(new TimeKeeper.Channel("b", 10)), new long[] {sent}, sent, NONE, 0));
    assertNull(book.register("b", null, List.of(new TimeKeeper.Channel("a", 10)), new long[] {sent}, sent, NONE, 0));
    assertTrue(book.balanced());
    return book;
  }

  /** b's fresh start: nothing sent or received, its start-up due at model time 0. */
  private static String rejoinB(SyncBook book, long next) {
    return book.register("b", null, List.of(new TimeKeeper.Channel("a", 10)), new long[] {0}, 0, next, 0);
  }

  @Test
  void shouldRefuseAComponentThatLeftWhenNoDriverExpectsItBack() {
    SyncBook book = pairThatTalked(3);
    book.retire("b");
    String problem = rejoinB(book, 0);
    assertNotNull(problem);
    assertTrue(problem.contains("b left and is not expected back"), problem);
    assertEquals(1, book.joined());
  }

  @Test
  void shouldRefuseToExpectBackAComponentThatIsRunningOrNeverJoinedOrBeforeItsLastEvent() {
    SyncBook book = pairThatTalked(0);
    assertTrue(book.expectBack(List.of("b"), 500).contains("b is still running"));
    assertTrue(book.expectBack(List.of("c"), 500).contains("no component named c"));
    book.report("b", -1, new long[] {0}, 0, NONE, NONE, 0, 700);
    book.retire("b");
    String problem = book.expectBack(List.of("b"), 500);
    assertTrue(problem.contains("b cannot come back at 500 ns: it had handled an event at 700 ns"), problem);
    assertTrue(book.awaitedBack().isEmpty(), "a refused restart changes nothing");
  }

  @Test
  void shouldStartARestartedMembersCountsFreshWhenItsPredecessorLeftThemExact() {
    SyncBook book = pairThatTalked(3);
    book.retire("b");
    book.report("a", -1, new long[] {4}, 3, NONE, 0); // one more to b after it left: lost with it
    assertTrue(book.balanced(), "nothing waits on a member that left");
    assertNull(book.expectBack(List.of("b"), 500));
    assertNull(rejoinB(book, 0));
    assertTrue(book.balanced(), "b got none of the 4 sent to its predecessor, a all 3 it sent");
    book.report("a", -1, new long[] {5}, 3, NONE, 0); // the first to the new b
    assertFalse(book.balanced(), "the new b is owed the one sent after it joined");
    book.report("b", -1, new long[] {1}, 1, NONE, 0);
    assertFalse(book.balanced(), "a is owed the new b's first: 3 + 1");
    book.report("a", -1, new long[] {5}, 4, NONE, 0);
    assertTrue(book.balanced(), "neither side counted twice");
  }

  @Test
  void shouldOweTheRestartedMemberWhatWasSentToItsNameAfterItWasExpectedBackWhenItJoinsLate() {
    SyncBook book = pairThatTalked(3);
    book.retire("b");
    book.report("a", -1, new long[] {4}, 3, NONE, 0); // lost with the old b
    assertNull(book.expectBack(List.of("b"), 500));
    book.report("a", -1, new long[] {5}, 3, NONE, 0); // to the new b, over its trained link, before it joined
    assertNull(book.register("b", null, List.of(new TimeKeeper.Channel("a", 10)), new long[] {0}, 1, NONE, 0));
    assertTrue(book.balanced(), "the new b got the one sent after it was expected back, not the lost one");
  }

  @Test
  void shouldStartARestartedMembersCountsFreshWhenItsPredecessorDiedUnannounced() {
    SyncBook book = pairThatTalked(3);
    book.report("b", -1, new long[] {5}, 3, NONE, 0); // two in flight to a as b dies
    book.remove("b");
    assertTrue(book.balanced(), "a may never get b's last two");
    assertNull(book.expectBack(List.of("b"), 500));
    assertNull(rejoinB(book, 0));
    assertTrue(book.balanced(), "the new b owes nothing and is owed nothing");
    book.report("a", -1, new long[] {4}, 3, NONE, 0); // the first to the new b
    assertFalse(book.balanced(), "the new b is owed a's one, its predecessor's three not counted again");
    book.report("b", -1, new long[] {1}, 1, NONE, 0);
    assertTrue(book.balanced(), "a stays lenient about the old b's last two, as before the restart");
  }

  @Test
  void shouldGrantNothingAtOrAfterTheRestartUntilEveryMemberExpectedBackJoined() {
    SyncBook book = new SyncBook();
    assertNull(book.register("a", null, List.of(new TimeKeeper.Channel("b", 10), new TimeKeeper.Channel("c", 10)),
        new long[] {0, 0}, 0, 485, 0));
    assertNull(book.register("b", null, List.of(new TimeKeeper.Channel("a", 10)), new long[] {0}, 0, NONE, 0));
    assertNull(book.register("c", null, List.of(new TimeKeeper.Channel("a", 10)), new long[] {0}, 0, NONE, 0));
    book.retire("b");
    book.retire("c");
    assertNull(book.expectBack(List.of("b", "c"), 500));
    List<SyncBook.Granted> grants = book.nextRound();
    assertEquals(1, grants.size());
    assertEquals(500, grants.get(0).until(), "a's event at 485 runs, up to the restart only (not its echo at 505)");
    book.report("a", grants.get(0).round(), new long[] {0, 0}, 0, 600, 0);
    assertTrue(book.nextRound().isEmpty(), "a's next event at 600 waits for b and c");
    assertFalse(book.idle(), "a rack waiting for its restarted members is not idle");
    assertEquals("the restarted b, c to join again", book.waiting());
    assertNull(rejoinB(book, 0));
    assertEquals(List.of("c"), book.awaitedBack());
    assertTrue(book.nextRound().isEmpty(), "c is not back yet: the wall time it takes costs no model time");
    assertNull(book.register("c", null, List.of(new TimeKeeper.Channel("a", 10)), new long[] {0}, 0, NONE, 0));
    assertTrue(book.awaitedBack().isEmpty());
    grants = book.nextRound();
    assertEquals(1, grants.size(), "only b has an event: its start-up, deferred to the restart");
    assertEquals(500, grants.get(0).since(), "b's clock starts at the restart");
    assertEquals(520, grants.get(0).until(), "b's own start-up at 500 could come back through a at 520");
  }

  @Test
  void shouldTellOnlyTheRestartedMemberWhereItsClockStartsWhenGranting() {
    SyncBook book = new SyncBook();
    assertNull(book.register("a", null, List.of(new TimeKeeper.Channel("b", 10)), new long[] {0}, 0, NONE, 0));
    assertNull(book.register("b", null, List.of(new TimeKeeper.Channel("a", 10)), new long[] {0}, 0, NONE, 0));
    book.retire("b");
    assertNull(book.expectBack(List.of("b"), 500));
    assertNull(rejoinB(book, NONE));
    book.report("a", -1, new long[] {0}, 0, 505, 0);
    book.report("b", -1, new long[] {0}, 0, 0, 0); // a start-up event at 0, reported after joining
    List<SyncBook.Granted> grants = book.nextRound();
    assertEquals(2, grants.size());
    assertEquals(Long.MIN_VALUE, grants.get(0).since(), "a never left");
    assertEquals(510, grants.get(0).until(), "b's start-up counts at 500, not 0: a may go to 510");
    assertEquals(500, grants.get(1).since());
  }

  @Test
  void shouldIgnoreTheLateDeathOfAnIncarnationThatARestartReplaced() {
    SyncBook book = pairThatTalked(0);
    assertEquals(0, book.incarnation("b"));
    book.retire("b");
    assertNull(book.expectBack(List.of("b"), 500));
    assertNull(rejoinB(book, NONE));
    assertEquals(1, book.incarnation("b"));
    book.remove("b", 0); // the old JVM's death, noticed in wall time after the new one joined
    assertEquals(2, book.joined());
    book.remove("b", 1);
    assertEquals(1, book.joined());
  }

  @Test
  void shouldKeepTheReplacedIncarnationsStragglersAndReachedWhenItsSuccessorJoins() {
    SyncBook book = pairThatTalked(0);
    book.report("b", -1, new long[] {0}, 0, NONE, NONE, 2, 450);
    book.retire("b");
    assertNull(book.expectBack(List.of("b"), 500));
    assertNull(rejoinB(book, NONE));
    assertEquals(2, book.stragglers());
    assertEquals(450, book.reached());
  }

  @Test
  void shouldAnswerAHoldOnlyOnceTheMembersExpectedBackJoinedWhenTheHoldIsAtTheRestart() {
    SyncBook book = pairThatTalked(0);
    book.retire("b");
    book.holdBefore(800);
    assertNull(book.expectBack(List.of("b"), 500));
    assertFalse(book.quietBefore(800), "the rack stays at 500 until b is back");
    assertTrue(book.quietBefore(500));
    assertNull(rejoinB(book, NONE));
    assertTrue(book.quietBefore(800));
  }
}
