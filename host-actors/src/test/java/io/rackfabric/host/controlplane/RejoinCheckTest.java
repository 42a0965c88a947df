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

  @Test
  void shouldAdmitAndSendTheEventsItLacksWhenTheJoinersJournalIsAPrefix() {
    JournalHistory master = history(0, 1, 2, 3, 4);
    JournalHistory joiner = history(0, 1, 2);
    RejoinCheck.Verdict v = RejoinCheck.decide("mmh", joiner.lastSeqNr(), joiner.chain(), master);
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
        RejoinCheck.decide("mmh", joiner.lastSeqNr(), joiner.chain(), master));
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
        RejoinCheck.decide("mmh", joiner.lastSeqNr(), joiner.chain(), master));
    assertEquals(3, refuse.firstDifferingSeqNr(), refuse.reason());
  }

  @Test
  void shouldAdmitWithNothingToSendWhenTheJournalsAreEqual() {
    JournalHistory master = history(0, 1);
    RejoinCheck.Admit admit = assertInstanceOf(RejoinCheck.Admit.class,
        RejoinCheck.decide("mmh", 2, master.chain(), master));
    assertEquals(3, admit.fromSeqNr());
    assertEquals(List.of(), admit.events());
  }

  @Test
  void shouldRefuseNamingTheFirstDifferingSeqNrWhenTheJournalsDiverge() {
    JournalHistory master = history(0, 1, 2, 3);
    JournalHistory diverged = history(0, 1, 9);
    RejoinCheck.Refuse r = assertInstanceOf(RejoinCheck.Refuse.class,
        RejoinCheck.decide("mmh", diverged.lastSeqNr(), diverged.chain(), master));
    assertEquals(3, r.firstDifferingSeqNr());
    assertTrue(r.reason().contains("not a prefix of the master's history: event 3 differs"), r.reason());
  }

  @Test
  void shouldRefuseWhenTheJoinersJournalGoesPastTheMasters() {
    JournalHistory master = history(0, 1);
    JournalHistory longer = history(0, 1, 2);
    RejoinCheck.Refuse r = assertInstanceOf(RejoinCheck.Refuse.class,
        RejoinCheck.decide("mmh", longer.lastSeqNr(), longer.chain(), master));
    assertEquals(3, r.firstDifferingSeqNr());
    assertTrue(r.reason().contains("ends at seqNr 3, past the master's last, 2"), r.reason());
  }

  @Test
  void shouldRefuseWhenTheChainDoesNotHaveOneDigestPerEvent() {
    JournalHistory master = history(0, 1, 2);
    RejoinCheck.Refuse r = assertInstanceOf(RejoinCheck.Refuse.class,
        RejoinCheck.decide("mmh", 3, master.chain().subList(0, 2), master));
    assertEquals("mmh sent 2 digests for lastSeqNr=3: one per event is needed", r.reason());
    assertEquals(3, r.firstDifferingSeqNr());
  }

  @Test
  void shouldAcceptATransferOnlyWhenItFollowsTheJournalAndEndsAtTheMastersLast() {
    List<ControllerEvent> all = List.of(page(0), page(1), page(2));
    ControlPlaneHost.StateTransfer t = new ControlPlaneHost.StateTransfer(2, all.subList(1, 3), 3, fold(all), 0,
        null, null, null);
    assertEquals(Optional.empty(), RejoinCheck.checkNumbers(1, t));
    assertEquals(Optional.of("transfer from seqNr 2 but this journal ends at 2"), RejoinCheck.checkNumbers(2, t));
    ControlPlaneHost.StateTransfer short1 = new ControlPlaneHost.StateTransfer(2, all.subList(1, 2), 3, fold(all), 0,
        null, null, null);
    assertEquals(Optional.of("transfer of 1 events from seqNr 2 does not end at the master's lastSeqNr=3"),
        RejoinCheck.checkNumbers(1, short1));
  }

  @Test
  void shouldAcceptTheWrittenJournalOnlyWhenItsStateIsTheMasters() {
    List<ControllerEvent> all = List.of(page(0), page(1));
    ControlPlaneHost.StateTransfer t = new ControlPlaneHost.StateTransfer(2, all.subList(1, 2), 2, fold(all), 0,
        null, null, null);
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
