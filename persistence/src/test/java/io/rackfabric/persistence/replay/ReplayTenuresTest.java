package io.rackfabric.persistence.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.PagePermission;
import io.rackfabric.persistence.replay.Replay.Comparison;
import io.rackfabric.persistence.replay.Replay.Verdict;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplayTenuresTest {

  private static final Path FILE = Path.of("rack.mv.db");

  @Test
  void shouldListAHostsTenuresInOrderWhenItRejoinedAsBackup() {
    String text = ReplayText.list(List.of(FILE), List.of(new IdSummary(FILE, "controller-bmh", 128, 128, 7),
        new IdSummary(FILE, "controller-mmh.tenure-2", 128, 128, 7), new IdSummary(FILE, "controller-mmh", 36, 36, 7)));
    assertTrue(text.contains("  tenures: 1 controller-mmh, 2 controller-mmh.tenure-2 (each journal a tenure"), text);
    assertFalse(text.contains("controller-bmh,"), text);
  }

  @Test
  void shouldListNoTenuresWhenNoHostRejoined() {
    String text = ReplayText.list(List.of(FILE), List.of(new IdSummary(FILE, "controller-bmh", 9, 9, 7),
        new IdSummary(FILE, "controller-mmh", 9, 9, 7)));
    assertFalse(text.contains("tenures"), text);
  }

  private static final ControllerEvent.SteppedDown STEP_DOWN =
      new ControllerEvent.SteppedDown("bmh", 651_090_000L, 2, 3_500_000_000L);

  private static List<JournalEntry> journal(ControllerEvent... events) {
    List<JournalEntry> out = new ArrayList<>();
    for (ControllerEvent e : events) {
      out.add(new JournalEntry(out.size() + 1L, e));
    }
    return out;
  }

  private static ControllerEvent page(int k) {
    return new ControllerEvent.IommuPageOpened("ch1", 0x200, (1L << 35) + k * 4096L, PagePermission.READ_WRITE,
        1_000L * (k + 1));
  }

  @Test
  void shouldCompareATenureEndingInAStepDownAsAPrefixWhenItsChangeLogIsOne() {
    Comparison c = Replay.compare("controller-mmh ~ controller-bmh", journal(page(0), page(1), STEP_DOWN),
        journal(page(0), page(1), page(2)));
    assertEquals(new Comparison("controller-mmh ~ controller-bmh", Verdict.PREFIX, 2, 3, -1, null, null), c);
    assertEquals(Verdict.IDENTICAL, Replay.compare("x", journal(page(0), page(1), STEP_DOWN),
        journal(page(0), page(1))).verdict());
  }

  @Test
  void shouldSayDivergedWhenATenureEndingInAStepDownHoldsARealExtraEvent() {
    Comparison c = Replay.compare("controller-mmh ~ controller-bmh", journal(page(0), page(7), STEP_DOWN),
        journal(page(0), page(1), page(2)));
    assertEquals(Verdict.DIVERGED, c.verdict());
    assertEquals(2, c.seqNr());
    // A step-down compared with a real event of the other is not skipped: only a tenure's last event is.
    assertEquals(Verdict.DIVERGED, Replay.compare("y", journal(page(0), STEP_DOWN, page(1)),
        journal(page(0), page(1), page(2))).verdict());
  }

  @Test
  void shouldMarkTheEndOfTheTenureWhenItsLastEventIsAStepDown() {
    String text = ReplayText.events(new IdSummary(FILE, "controller-mmh", 3, 3, -1),
        journal(page(0), page(1), STEP_DOWN));
    assertTrue(text.contains("3  at 3,500,000,000 ns  SteppedDown fencedBy=bmh fencedAt=651,090,000 ns lastSeqNr=2\n"
        + "   -- end of this tenure: its master stepped down (not part of the replicated change log) --\n"), text);
  }
}
