package io.rackfabric.fabric.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The keeper's decisions, driven step by step without actors (the refs are never used). */
class SyncBookTest {

  private static final long NONE = Long.MAX_VALUE;

  /** a and b on one link, 10 ns each way. */
  private static SyncBook pair(long nextA, long nextB) {
    SyncBook book = new SyncBook();
    assertNull(book.register("a", null, List.of(new TimeKeeper.Channel("b", 10)), new long[] {0}, 0, nextA, 0));
    assertNull(book.register("b", null, List.of(new TimeKeeper.Channel("a", 10)), new long[] {0}, 0, nextB, 0));
    return book;
  }

  @Test
  void shouldGrantOnlyWhatIsSafeWhenBothHaveEvents() {
    SyncBook book = pair(100, 105);
    List<SyncBook.Granted> grants = book.nextRound();
    assertEquals(2, grants.size());
    assertEquals(115, grants.get(0).until()); // a: b's event could reach it at 115
    assertEquals(110, grants.get(1).until()); // b: a's at 110
  }

  @Test
  void shouldStartNoRoundWhileAGrantIsOutstanding() {
    SyncBook book = pair(100, NONE);
    List<SyncBook.Granted> grants = book.nextRound();
    assertEquals(1, grants.size());
    assertTrue(book.nextRound().isEmpty(), "a has not reported");
    book.report("a", grants.get(0).round(), new long[] {0}, 0, NONE, 0);
    assertTrue(book.idle());
  }

  @Test
  void shouldWaitForMessagesInFlightWhenCountsDoNotBalance() {
    SyncBook book = pair(100, NONE);
    SyncBook.Granted g = book.nextRound().get(0);
    book.report("a", g.round(), new long[] {1}, 0, NONE, 0); // a sent b one message
    assertFalse(book.balanced());
    assertTrue(book.nextRound().isEmpty());
    assertFalse(book.idle());
    book.report("b", -1, new long[] {0}, 1, 118, 0); // b received it, due at 118
    List<SyncBook.Granted> next = book.nextRound();
    assertEquals(1, next.size());
    assertEquals(138, next.get(0).until(), "its own event's echo through a: 118 + 10 + 10");
  }

  @Test
  void shouldIgnoreAReportOfAnOlderRoundWhenAGrantIsOutstanding() {
    SyncBook book = pair(100, NONE);
    SyncBook.Granted g = book.nextRound().get(0);
    book.report("a", -1, new long[] {0}, 0, 100, 0); // spontaneous, before the grant was handled
    assertTrue(book.nextRound().isEmpty());
    book.report("a", g.round(), new long[] {0}, 0, NONE, 0);
    assertTrue(book.idle());
  }

  @Test
  void shouldGoOnWithoutAStoppedMemberWhenItsLastMessagesArriveLate() {
    SyncBook book = pair(100, NONE);
    SyncBook.Granted g = book.nextRound().get(0);
    book.report("a", g.round(), new long[] {1}, 0, NONE, 0);
    book.remove("b"); // stopped before it received a's message
    assertTrue(book.balanced());
    assertTrue(book.idle());
    book.remove("a");
    assertEquals(0, book.joined());
  }

  @Test
  void shouldTakeArrivalsFromADeadSenderBeyondItsLastReportWhenBalancing() {
    SyncBook book = pair(NONE, NONE);
    book.remove("a"); // it had sent two more before dying, unreported
    book.report("b", -1, new long[] {0}, 2, NONE, 0);
    assertTrue(book.balanced());
  }

  @Test
  void shouldNotWaitForTheLastReportedSendsOfADeadSenderWhenTheyAreLost() {
    SyncBook book = pair(NONE, NONE);
    book.report("a", -1, new long[] {3}, 0, NONE, 0);
    book.report("b", -1, new long[] {0}, 2, NONE, 0);
    assertFalse(book.balanced());
    book.remove("a"); // the third died with its JVM
    assertTrue(book.balanced());
  }

  /** x and y both send to r; x dies; y's message reaches r before y's report says it sent it. */
  @Test
  void shouldStillWaitForALiveSendersMessageWhenARetiredSenderLeftExactCounts() {
    SyncBook book = new SyncBook();
    assertNull(book.register("x", null, List.of(new TimeKeeper.Channel("r", 10)), new long[] {3}, 0, NONE, 0));
    assertNull(book.register("y", null, List.of(new TimeKeeper.Channel("r", 10)), new long[] {0}, 0, NONE, 0));
    assertNull(book.register("r", null, List.of(), new long[0], 3, NONE, 0));
    book.retire("x");
    book.report("r", -1, new long[0], 4, NONE, 0); // y's first, before y reported it
    assertFalse(book.balanced(), "r has one more than the counts say: y's report is still coming");
    book.report("y", -1, new long[] {1}, 0, NONE, 0);
    assertTrue(book.balanced());
    book.report("y", -1, new long[] {2}, 0, NONE, 0); // y's second is in flight
    assertFalse(book.balanced(), "a retired sender's old messages do not stand in for a live one's");
  }

  /**
   * x and y both send to r; x is stopped by a run driver with exact counts, but its death is
   * noticed (remove) before the driver's word (retire): r must not count x's old messages toward
   * y's, which are still in flight.
   */
  @Test
  void shouldMakeCountsExactAgainWhenAMemberNoticedDeadIsThenRetired() {
    SyncBook book = new SyncBook();
    assertNull(book.register("x", null, List.of(new TimeKeeper.Channel("r", 10)), new long[] {3}, 0, NONE, 0));
    assertNull(book.register("y", null, List.of(new TimeKeeper.Channel("r", 10)), new long[] {0}, 0, NONE, 0));
    assertNull(book.register("r", null, List.of(), new long[0], 3, NONE, 0));
    book.remove("x");
    book.report("y", -1, new long[] {2}, 0, NONE, 0); // y's two are in flight
    assertTrue(book.balanced(), "dead unannounced: x's three stand in for what r may never get");
    book.retire("x");
    assertFalse(book.balanced(), "retired with exact counts: r waits for y's two");
    book.report("r", -1, new long[0], 5, NONE, 0);
    assertTrue(book.balanced());
    book.remove("x");
    book.retire("x");
    assertTrue(book.balanced(), "a second remove or retire of a stopped member changes nothing");
  }

  @Test
  void shouldRefuseASecondComponentOfTheSameNameWhenItRegisters() {
    SyncBook book = pair(NONE, NONE);
    String problem = book.register("a", null, List.of(), new long[0], 0, NONE, 0);
    assertNotNull(problem);
    assertTrue(problem.contains("a"), problem);
    assertTrue(book.joinedAll(Set.of("a", "b")));
    assertFalse(book.joinedAll(Set.of("a", "b", "c")));
  }

  @Test
  void shouldLetTheFirstNamedComponentHandleItsEarliestEventsWhenACycleHasLookaheadZero() {
    SyncBook book = new SyncBook();
    // Registered in the opposite order of their names: the tie must not follow arrival order.
    assertNull(book.register("b", null, List.of(new TimeKeeper.Channel("a", 0)), new long[] {0}, 0, 100, 0));
    assertNull(book.register("a", null, List.of(new TimeKeeper.Channel("b", 0)), new long[] {0}, 0, 100, 0));

    List<SyncBook.Granted> first = book.nextRound();
    assertEquals(1, first.size(), "one component at a time on a cycle of lookahead 0");
    assertEquals(101, first.get(0).until(), "only its events at the earliest time");
    assertEquals("reports from a", book.waiting(), "a: its name sorts first");
    assertEquals(1, book.rounds());
    assertTrue(book.nextRound().isEmpty(), "a has not reported");

    book.report("a", first.get(0).round(), new long[] {1}, 0, NONE, 0); // a sent b one message, at 100
    book.report("b", -1, new long[] {0}, 1, 100, 0);
    List<SyncBook.Granted> second = book.nextRound();
    assertEquals(1, second.size());
    assertEquals(101, second.get(0).until(), "b's events at 100, now with what a sent it");
    book.report("b", second.get(0).round(), new long[] {0}, 1, NONE, 0);
    assertTrue(book.idle());
  }

  @Test
  void shouldNotStepPastTheHoldWhenACycleHasLookaheadZero() {
    SyncBook book = new SyncBook();
    assertNull(book.register("a", null, List.of(new TimeKeeper.Channel("b", 0)), new long[] {0}, 0, 100, 0));
    assertNull(book.register("b", null, List.of(new TimeKeeper.Channel("a", 0)), new long[] {0}, 0, 100, 0));
    book.holdBefore(100);
    assertTrue(book.nextRound().isEmpty());
    assertTrue(book.quietBefore(100));
  }

  @Test
  void shouldReportTheLatestModelTimeAnyComponentHandledWhenAsked() {
    SyncBook book = new SyncBook();
    assertNull(book.register("a", null, List.of(new TimeKeeper.Channel("b", 10)), new long[] {0}, 0, NONE, NONE, 0, 40));
    assertNull(book.register("b", null, List.of(new TimeKeeper.Channel("a", 10)), new long[] {0}, 0, NONE, NONE, 0, 70));
    assertEquals(70, book.reached());
    book.report("a", -1, new long[] {0}, 0, NONE, NONE, 0, 90);
    book.report("b", -1, new long[] {0}, 0, NONE, NONE, 0, 60); // a late report never moves it back
    assertEquals(90, book.reached());
  }

  /** a with a background timer at {@code timer} and its next busy event at {@code busy}; b idle. */
  private static SyncBook withTimer(long timer, long busy) {
    SyncBook book = new SyncBook();
    assertNull(book.register("a", null, List.of(new TimeKeeper.Channel("b", 10)), new long[] {0}, 0,
        Math.min(timer, busy), busy, 0, 0));
    assertNull(book.register("b", null, List.of(new TimeKeeper.Channel("a", 10)), new long[] {0}, 0, NONE, 0));
    return book;
  }

  @Test
  void shouldBeIdleAndGrantNothingWhenOnlyABackgroundTimerIsPendingAndTheRackIsReleased() {
    SyncBook book = withTimer(100, NONE);
    assertTrue(book.nextRound().isEmpty(), "a heartbeat alone does not run a released rack");
    assertTrue(book.idle());
    assertEquals(100, book.earliest());
  }

  @Test
  void shouldRunABackgroundTimerWhenADriverLimitsTheRackPastIt() {
    SyncBook book = withTimer(100, NONE);
    book.holdBefore(500);
    List<SyncBook.Granted> grants = book.nextRound();
    assertEquals(1, grants.size());
    assertEquals(120, grants.get(0).until(), "its own event's echo through b");
    assertEquals(500, grants.get(0).backgroundUntil(), "background events run up to the hold");
    assertFalse(book.quietBefore(500));
    assertFalse(book.idle());
  }

  @Test
  void shouldRunABackgroundTimerBeforeTheBusyEventAfterItButNotPastThatEventWhenReleased() {
    SyncBook book = withTimer(100, 300);
    assertFalse(book.idle());
    List<SyncBook.Granted> grants = book.nextRound();
    assertEquals(1, grants.size());
    assertEquals(120, grants.get(0).until());
    assertEquals(301, grants.get(0).backgroundUntil(), "background up to the busy event, inclusive");
  }

  @Test
  void shouldBeIdleOnlyOnceEveryBackgroundEventUpToTheLastBusyOneIsHandledWhenReleased() {
    SyncBook book = withTimer(100, 300);
    SyncBook.Granted g = book.nextRound().get(0);
    // a handled its timer at 100 and the busy event at 300 is still there; its next timer is at 200.
    book.report("a", g.round(), new long[] {0}, 0, 200, 300, 0, 100);
    assertFalse(book.idle());
    g = book.nextRound().get(0);
    assertEquals(301, g.backgroundUntil());
    // a handled 200 and 300; its next timer, at 400, is past the last busy event: idle.
    book.report("a", g.round(), new long[] {0}, 0, 400, NONE, 0, 300);
    assertTrue(book.nextRound().isEmpty());
    assertTrue(book.idle());
    assertEquals(300, book.reached());
  }

  @Test
  void shouldGrantNoBackgroundEventPastTheBusyFrontierWhenReleased() {
    SyncBook book = new SyncBook();
    // a: a timer at 50, no busy event; b: a busy event at 40. b's event is the frontier.
    assertNull(book.register("a", null, List.of(new TimeKeeper.Channel("b", 1000)), new long[] {0}, 0, 50, NONE, 0,
        0));
    assertNull(book.register("b", null, List.of(new TimeKeeper.Channel("a", 1000)), new long[] {0}, 0, 40, 40, 0, 0));
    List<SyncBook.Granted> grants = book.nextRound();
    assertEquals(1, grants.size(), "only b: a's timer at 50 is past the busy frontier 40");
    assertEquals(41, grants.get(0).backgroundUntil());
  }
}
