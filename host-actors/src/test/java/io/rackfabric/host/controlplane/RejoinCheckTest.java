package io.rackfabric.host.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.persistence.typed.PersistenceId;
import io.rackfabric.persistence.controller.Controller.CurrentState;
import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.ControllerState;
import io.rackfabric.persistence.controller.JournalHistory;
import io.rackfabric.persistence.controller.PagePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RejoinCheckTest {

  private static ControllerEvent page(int k) {
    return new ControllerEvent.IommuPageOpened("ch1", 0x200, (1L << 35) + k * 4096L, PagePermission.READ_WRITE,
        1_000L * (k + 1));
  }

  private static JournalHistory history(int... pages) {
    List<ControllerEvent> events = new ArrayList<>();
    for (int k : pages) {
      events.add(page(k));
    }
    return new JournalHistory(events);
  }

  private static ControllerState fold(List<ControllerEvent> events) {
    ControllerState s = ControllerState.empty();
    for (ControllerEvent e : events) {
      s = s.apply(e);
    }
    return s;
  }

  /** The master's verdict on {@code joiner}'s request as a rejoining host makes it. */
  private static RejoinCheck.Verdict decide(JournalHistory joiner, JournalHistory master) {
    return RejoinCheck.decide(RejoinCheck.joinRequest("mmh", joiner, 0, null, null), master);
  }

  /** Events 0 to n - 1, and {@code changed} replaced by a different one (-1: none). */
  private static JournalHistory journal(int n, int changed) {
    List<ControllerEvent> events = new ArrayList<>(n);
    for (int k = 0; k < n; k++) {
      events.add(page(k == changed ? k + 1_000_000 : k));
    }
    return new JournalHistory(events);
  }

  private static RejoinProtocol.StateTransfer chunk(long from, List<ControllerEvent> events, long last, long digest) {
    return new RejoinProtocol.StateTransfer(from, events, last, digest, 0, null, null, null);
  }

  @Test
  void shouldAdmitAndSendTheEventsItLacksWhenTheJoinersJournalIsAPrefix() {
    JournalHistory master = history(0, 1, 2, 3, 4);
    JournalHistory joiner = history(0, 1, 2);
    RejoinCheck.Verdict v = decide(joiner, master);
    RejoinCheck.Admit admit = assertInstanceOf(RejoinCheck.Admit.class, v);
    assertEquals(4, admit.fromSeqNr());
    assertEquals(List.of(page(3), page(4)), admit.events());
  }

  @Test
  void shouldAdmitAJournalEndingInAStepDownAsAPrefixWhenItsChangeLogIsOne() {
    JournalHistory master = history(0, 1, 2, 3);
    List<ControllerEvent> fenced = new ArrayList<>(List.of(page(0), page(1)));
    fenced.add(new ControllerEvent.SteppedDown("bmh", 651_090_000L, 2, 3_500_000_000L));
    JournalHistory joiner = new JournalHistory(fenced);
    assertEquals(2, joiner.lastSeqNr(), "the step-down is not part of the change log");
    assertEquals(fenced.get(2), joiner.stepDown());
    RejoinCheck.Admit admit = assertInstanceOf(RejoinCheck.Admit.class,
        decide(joiner, master));
    assertEquals(3, admit.fromSeqNr());
    assertEquals(List.of(page(2), page(3)), admit.events());
  }

  @Test
  void shouldRefuseAJournalWithARealExtraEventWhenItAlsoEndsInAStepDown() {
    JournalHistory master = history(0, 1, 2, 3);
    List<ControllerEvent> diverged = new ArrayList<>(List.of(page(0), page(1), page(7)));
    diverged.add(new ControllerEvent.SteppedDown("bmh", 651_090_000L, 3, 3_500_000_000L));
    JournalHistory joiner = new JournalHistory(diverged);
    RejoinCheck.Refuse refuse = assertInstanceOf(RejoinCheck.Refuse.class,
        decide(joiner, master));
    assertEquals(3, refuse.firstDifferingSeqNr(), refuse.reason());
  }

  @Test
  void shouldAdmitWithNothingToSendWhenTheJournalsAreEqual() {
    JournalHistory master = history(0, 1);
    RejoinCheck.Admit admit = assertInstanceOf(RejoinCheck.Admit.class,
        decide(master, master));
    assertEquals(3, admit.fromSeqNr());
    assertEquals(List.of(), admit.events());
  }

  @Test
  void shouldRefuseNamingTheFirstDifferingSeqNrWhenTheJournalsDiverge() {
    JournalHistory master = history(0, 1, 2, 3);
    JournalHistory diverged = history(0, 1, 9);
    RejoinCheck.Refuse r = assertInstanceOf(RejoinCheck.Refuse.class,
        decide(diverged, master));
    assertEquals(3, r.firstDifferingSeqNr());
    assertTrue(r.reason().contains("not a prefix of the master's history: event 3 differs"), r.reason());
  }

  @Test
  void shouldRefuseWhenTheJoinersJournalGoesPastTheMasters() {
    JournalHistory master = history(0, 1);
    JournalHistory longer = history(0, 1, 2);
    RejoinCheck.Refuse r = assertInstanceOf(RejoinCheck.Refuse.class,
        decide(longer, master));
    assertEquals(3, r.firstDifferingSeqNr());
    assertTrue(r.reason().contains("ends at seqNr 3, past the master's last, 2"), r.reason());
  }

  @Test
  void shouldRefuseAMalformedSampleWhenItDoesNotEndAtTheLastSeqNr() {
    JournalHistory master = history(0, 1, 2);
    List<Long> chain = master.chain();
    RejoinCheck.Refuse r = assertInstanceOf(RejoinCheck.Refuse.class,
        RejoinCheck.decide("mmh", 3, List.of(1L, 2L), chain.subList(0, 2), master));
    assertEquals("mmh sent a malformed join request: the sample ends at seqNr 2, not at lastSeqNr=3", r.reason());
    assertEquals(-1, r.firstDifferingSeqNr());
    RejoinCheck.Refuse counts = assertInstanceOf(RejoinCheck.Refuse.class,
        RejoinCheck.decide("mmh", 3, List.of(1L, 3L), chain, master));
    assertEquals("mmh sent a malformed join request: 2 sequence numbers for 3 digests", counts.reason());
    RejoinCheck.Refuse order = assertInstanceOf(RejoinCheck.Refuse.class,
        RejoinCheck.decide("mmh", 3, List.of(2L, 1L, 3L), chain, master));
    assertEquals("mmh sent a malformed join request: sampled seqNr 1 after 2 is not in (2, 3]", order.reason());
  }

  @Test
  void shouldSampleEveryDigestWhenTheJournalIsShortAndABoundedEvenlySpacedOneWhenItIsLong() {
    assertEquals(List.of(), RejoinCheck.sampleSeqNrs(0));
    assertEquals(List.of(1L, 2L, 3L), RejoinCheck.sampleSeqNrs(3));
    assertEquals(RejoinCheck.SAMPLE_DIGESTS, RejoinCheck.sampleSeqNrs(RejoinCheck.SAMPLE_DIGESTS).size());
    List<Long> sample = RejoinCheck.sampleSeqNrs(100_000);
    assertEquals(RejoinCheck.SAMPLE_DIGESTS, sample.size());
    assertEquals(98L, sample.get(0)); // ceil(100,000 / 1,024)
    assertEquals(100_000L, sample.get(sample.size() - 1));
    for (int k = 1; k < sample.size(); k++) {
      long gap = sample.get(k) - sample.get(k - 1);
      assertTrue(gap == 97 || gap == 98, "gap " + gap + " at " + k);
    }
    RejoinProtocol.JoinAsBackup join = RejoinCheck.joinRequest("mmh", journal(5_000, -1), 7, null, null);
    assertEquals(5_000, join.lastSeqNr());
    assertEquals(RejoinCheck.SAMPLE_DIGESTS, join.sampleDigests().size(), "a chain of 5,000 sent as a sample");
    assertEquals(journal(5_000, -1).chain().get(4_999), join.sampleDigests().get(RejoinCheck.SAMPLE_DIGESTS - 1));
  }

  @Test
  void shouldAdmitWhenOnlyTheSampleOfALongChainIsSentAndItsLastDigestMatches() {
    JournalHistory master = journal(6_000, -1);
    RejoinCheck.Admit admit = assertInstanceOf(RejoinCheck.Admit.class, decide(journal(5_000, -1), master));
    assertEquals(5_001, admit.fromSeqNr());
    assertEquals(1_000, admit.events().size());
  }

  @Test
  void shouldLocateTheFirstDifferenceExactlyWhenTheJournalIsShort() {
    RejoinCheck.Refuse r = assertInstanceOf(RejoinCheck.Refuse.class, decide(journal(1_000, 600), journal(1_200, -1)));
    assertEquals(601, r.firstDifferingSeqNr());
    assertTrue(r.reason().contains("event 601 differs"), r.reason());
  }

  @Test
  void shouldNarrowTheRangeStepByStepWhenTheJournalIsLongerThanTheSample() {
    // 5,000 events sampled at ceil(k * 5,000 / 1,024): ..., 2,999, 3,003, ...; event 3,001 differs.
    JournalHistory joiner = journal(5_000, 3_000);
    JournalHistory master = journal(6_000, -1);
    RejoinCheck.Narrow n = assertInstanceOf(RejoinCheck.Narrow.class, decide(joiner, master));
    assertEquals(2_999, n.agreed(), "every event up to the last agreeing sampled digest is the same");
    assertEquals(3_003, n.differs(), "the first sampled digest that differs");
    assertEquals(List.of(3_000L, 3_001L, 3_002L), n.wanted());
    RejoinCheck.Refuse r = assertInstanceOf(RejoinCheck.Refuse.class,
        RejoinCheck.narrow("mmh", n, n.wanted(), RejoinCheck.digestsAt(joiner, n.wanted()), master));
    assertEquals(3_001, r.firstDifferingSeqNr());
    assertTrue(r.reason().contains("event 3001 differs (events up to 3000 agree"), r.reason());
  }

  @Test
  void shouldAskABoundedSampleAndNarrowAgainWhenTheRangeIsLongerThanTheSample() {
    // A range of 2,930 (as a journal of 3,000,000 events' request leaves): the first narrowing asks
    // 1,024 digests of it, the second the 2 or 3 left: the exact event.
    RejoinCheck.Narrow first = new RejoinCheck.Narrow(1_000, 3_930, 5_000, false);
    List<Long> wanted = first.wanted();
    assertEquals(RejoinCheck.SAMPLE_DIGESTS, wanted.size());
    assertEquals(3_929L, wanted.get(wanted.size() - 1), "the sample ends right before the differing digest");
    JournalHistory master = journal(5_000, -1);
    JournalHistory joiner = journal(5_000, 2_234); // event 2,235 differs
    RejoinCheck.Narrow second = assertInstanceOf(RejoinCheck.Narrow.class,
        RejoinCheck.narrow("mmh", first, wanted, RejoinCheck.digestsAt(joiner, wanted), master));
    assertTrue(second.agreed() < 2_235 && second.differs() >= 2_235, second.toString());
    assertTrue(second.differs() - second.agreed() <= 3, "a range of 2,930 / 1,024 at most: " + second);
    RejoinCheck.Refuse r = assertInstanceOf(RejoinCheck.Refuse.class, RejoinCheck.narrow("mmh", second,
        second.wanted(), RejoinCheck.digestsAt(joiner, second.wanted()), master));
    assertEquals(2_235, r.firstDifferingSeqNr());
  }

  @Test
  void shouldNameTheFirstDifferingEventWhateverItIsWhenTheJournalIsLong() {
    JournalHistory master = journal(8_000, -1);
    for (int changed : new int[] {0, 1, 4, 5, 3_000, 4_882, 4_883, 6_999, 7_999}) {
      JournalHistory joiner = journal(changed < 5_000 ? 5_000 : 8_000, changed);
      assertEquals(changed + 1, refusedAfterNarrowing(joiner, master).firstDifferingSeqNr(), "event " + (changed + 1));
    }
  }

  /** Decides, then answers every narrowing as the joiner does, until refused. */
  private static RejoinCheck.Refuse refusedAfterNarrowing(JournalHistory joiner, JournalHistory master) {
    RejoinCheck.Verdict v = decide(joiner, master);
    for (int round = 0; v instanceof RejoinCheck.Narrow n; round++) {
      assertTrue(round < 3, "narrowed " + round + " times");
      assertTrue(n.wanted().size() <= RejoinCheck.SAMPLE_DIGESTS, "bounded like the request");
      v = RejoinCheck.narrow("mmh", n, n.wanted(), RejoinCheck.digestsAt(joiner, n.wanted()), master);
    }
    return assertInstanceOf(RejoinCheck.Refuse.class, v);
  }

  @Test
  void shouldNarrowToTheMastersEndWhenALongJournalGoesPastTheMasters() {
    JournalHistory joiner = journal(5_000, -1);
    JournalHistory master = journal(3_000, -1);
    RejoinCheck.Narrow n = assertInstanceOf(RejoinCheck.Narrow.class, decide(joiner, master));
    assertEquals(new RejoinCheck.Narrow(2_999, 3_001, 5_000, true), n);
    RejoinCheck.Refuse r = refusedAfterNarrowing(joiner, master);
    assertEquals(3_001, r.firstDifferingSeqNr());
    assertTrue(r.reason().contains("ends at seqNr 5000, past the master's last, 3000: not a prefix of the master's"
        + " history (events up to 3000 agree)"), r.reason());
  }

  @Test
  void shouldRefuseWithTheRangeKnownWhenTheJoinerAnswersOtherDigestsThanAsked() {
    JournalHistory joiner = journal(5_000, 3_000);
    JournalHistory master = journal(6_000, -1);
    RejoinCheck.Narrow n = new RejoinCheck.Narrow(2_999, 3_003, 5_000, false);
    RejoinCheck.Refuse r = assertInstanceOf(RejoinCheck.Refuse.class,
        RejoinCheck.narrow("mmh", n, List.of(3_000L), RejoinCheck.digestsAt(joiner, List.of(3_000L)), master));
    assertEquals(3_000, r.firstDifferingSeqNr());
    assertEquals("mmh answered the narrowing of seqNr 3000..3003 with 1 digests at 3000..3000, not at the 3 asked"
        + " (3000..3002); events up to 2999 agree", r.reason());
    assertThrows(IllegalArgumentException.class, () -> new RejoinCheck.Narrow(5, 6, 10, false), "no range to narrow");
  }

  @Test
  void shouldAcceptAChunkOnlyWhenItFollowsTheJournalAndEndsNoLaterThanTheMastersLast() {
    List<ControllerEvent> all = List.of(page(0), page(1), page(2));
    assertEquals(Optional.empty(), RejoinCheck.checkNumbers(1, chunk(2, all.subList(1, 3), 3, 0)));
    assertEquals(Optional.of("transfer from seqNr 2 but this journal ends at 2"),
        RejoinCheck.checkNumbers(2, chunk(2, all.subList(1, 3), 3, 0)));
    assertEquals(Optional.empty(), RejoinCheck.checkNumbers(1, chunk(2, all.subList(1, 2), 3, 0)),
        "a chunk before the last");
    assertEquals(Optional.of("chunk of 2 events from seqNr 2 goes past the master's lastSeqNr=2"),
        RejoinCheck.checkNumbers(1, chunk(2, all.subList(1, 3), 2, 0)));
    assertEquals(Optional.of("empty chunk from seqNr 2 before the master's lastSeqNr=3"),
        RejoinCheck.checkNumbers(1, chunk(2, List.of(), 3, 0)));
    assertEquals(Optional.empty(), RejoinCheck.checkNumbers(3, chunk(4, List.of(), 3, 0)), "nothing to transfer");
  }

  @Test
  void shouldAcceptTheWrittenJournalOnlyWhenItsStateHasTheMastersDigest() {
    List<ControllerEvent> all = List.of(page(0), page(1));
    RejoinProtocol.StateTransfer t = chunk(2, all.subList(1, 2), 2, JournalHistory.digestOf(fold(all)));
    assertEquals(Optional.empty(), RejoinCheck.checkWritten(t, new CurrentState(2, 0, fold(all))));
    assertEquals(Optional.of("lastSeqNr: master=2 rejoined=1"),
        RejoinCheck.checkWritten(t, new CurrentState(1, 0, fold(all.subList(0, 1)))));
    assertEquals(Optional.of("the states differ at lastSeqNr=2"),
        RejoinCheck.checkWritten(t, new CurrentState(2, 0, fold(List.of(page(0), page(5))))));
    assertEquals(Optional.of("the new journal did not answer"), RejoinCheck.checkWritten(t, null));
  }

  @Test
  void shouldMoveToTheNextTenuresIdWhenAHostRejoins() {
    assertEquals("controller-mmh.tenure-2", RejoinCheck.nextTenure(PersistenceId.ofUniqueId("controller-mmh")).id());
  }

  @Test
  void shouldEndAWriteWithTheTemplateImageWhenTheNewTenureIsWritten() {
    ControllerEvent template = new ControllerEvent.TemplateImageTaken(500);
    assertEquals(List.of(List.of(page(0), template), List.of(page(1), page(2))),
        RejoinCheck.writes(List.of(page(0), template, page(1), page(2)), 1_000));
    assertEquals(List.of(List.of(page(0), template)), RejoinCheck.writes(List.of(page(0), template), 1_000));
    assertEquals(List.of(List.of(page(0))), RejoinCheck.writes(List.of(page(0)), 1_000));
    assertEquals(List.of(), RejoinCheck.writes(List.of(), 1_000));
  }

  @Test
  void shouldSplitTheNewTenureIntoWritesOfAtMostTheLimitWhenItIsLong() {
    ControllerEvent template = new ControllerEvent.TemplateImageTaken(500);
    List<ControllerEvent> all = List.of(page(0), page(1), page(2), template, page(3), page(4), page(5), page(6), page(7));
    // The template's event still ends a write; no write is longer than 2.
    assertEquals(List.of(List.of(page(0), page(1)), List.of(page(2), template), List.of(page(3), page(4)),
        List.of(page(5), page(6)), List.of(page(7))), RejoinCheck.writes(all, 2));
    assertEquals(List.of(List.of(page(0)), List.of(page(1))), RejoinCheck.writes(List.of(page(0), page(1)), 1));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RejoinCheck.writes(all, 0));
    assertEquals("maxEvents=0 must be at least 1", e.getMessage());
  }
}
