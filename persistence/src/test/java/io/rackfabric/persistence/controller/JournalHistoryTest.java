package io.rackfabric.persistence.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class JournalHistoryTest {

  private static final ControllerEvent ADDED = new ControllerEvent.HostAdded("ch1", 0x100, 1L << 35, 1L << 35, 1_000);
  private static final ControllerEvent OPENED = new ControllerEvent.IommuPageOpened("ch1", 0x200, 1L << 35,
      PagePermission.READ_WRITE, 2_000);
  private static final ControllerEvent TEMPLATE = new ControllerEvent.TemplateImageTaken(3_000);

  @Test
  void shouldGiveEqualChainsWhenTheEventsAreEqualButNotTheSameObjects() {
    JournalHistory a = new JournalHistory(List.of(ADDED, OPENED));
    JournalHistory b = new JournalHistory(List.of(new ControllerEvent.HostAdded("ch1", 0x100, 1L << 35, 1L << 35, 1_000),
        new ControllerEvent.IommuPageOpened("ch1", 0x200, 1L << 35, PagePermission.READ_WRITE, 2_000)));
    assertEquals(a.chain(), b.chain());
    assertEquals(2, a.chain().size());
  }

  @Test
  void shouldDifferFromTheFirstDifferingEventOnWhenTwoJournalsDiverge() {
    List<Long> a = new JournalHistory(List.of(ADDED, OPENED, TEMPLATE)).chain();
    ControllerEvent readOnly = new ControllerEvent.IommuPageOpened("ch1", 0x200, 1L << 35, PagePermission.READ, 2_000);
    List<Long> b = new JournalHistory(List.of(ADDED, readOnly, TEMPLATE)).chain();
    assertEquals(a.get(0), b.get(0));
    assertNotEquals(a.get(1), b.get(1));
    // A chain digest covers every event before: the same third event does not bring them together.
    assertNotEquals(a.get(2), b.get(2));
  }

  @Test
  void shouldSetATenureEndingStepDownApartWhenTheJournalEndsWithOne() {
    ControllerEvent.SteppedDown stepDown = new ControllerEvent.SteppedDown("bmh", 651_090_000L, 3, 3_500_000_000L);
    JournalHistory fenced = new JournalHistory(List.of(ADDED, OPENED, TEMPLATE, stepDown));
    JournalHistory plain = new JournalHistory(List.of(ADDED, OPENED, TEMPLATE));
    assertEquals(plain.events(), fenced.events());
    assertEquals(plain.chain(), fenced.chain());
    assertEquals(3, fenced.lastSeqNr());
    assertEquals(stepDown, fenced.stepDown());
    assertEquals(null, plain.stepDown());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new JournalHistory(List.of(ADDED, stepDown), null));
    assertEquals("events end with a step-down: give it as stepDown", e.getMessage());
  }

  @Test
  void shouldGiveTheEventsAfterASequenceNumberWhenAskedAndRefuseOneOutsideTheJournal() {
    JournalHistory h = new JournalHistory(List.of(ADDED, OPENED, TEMPLATE));
    assertEquals(List.of(OPENED, TEMPLATE), h.after(1));
    assertEquals(List.of(), h.after(3));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> h.after(4));
    assertEquals("seqNr=4 not in [0, 3]", e.getMessage());
  }
}
