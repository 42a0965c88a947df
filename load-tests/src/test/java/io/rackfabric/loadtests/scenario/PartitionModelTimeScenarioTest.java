package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.ScenarioRunnerTest.figure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.RunResult.AppliedFault;
import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.replay.JournalEntry;
import io.rackfabric.persistence.replay.Journals;
import io.rackfabric.persistence.replay.Replay;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mmh-partition-model-time} in one JVM under the model-time kernel: the pair's network cut
 * both ways from 500 ms for 3 s. The backup takes over and fences the master; the master, cut off,
 * serves nothing; at the heal it learns it was fenced on the switch and steps down (its journal's
 * last event, {@code SteppedDown}), then rejoins as backup. Run twice: the same model and count
 * figures, fault notes and journals.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class PartitionModelTimeScenarioTest {

  private static final long CUT_AT = 500_000_000L;
  private static final long HEALED_AT = 3_500_000_000L;
  private static final List<String> IDS = List.of("controller-mmh", "controller-bmh", "controller-mmh.tenure-2");

  @TempDir Path dir;

  @Test
  void shouldServeNothingOnTheCutOffMasterStepItDownAtTheHealAndRepeatEveryFigureWhenRunTwice() throws Exception {
    List<List<String>> outcomes = new ArrayList<>();
    List<Map<String, List<String>>> journals = new ArrayList<>();
    for (int run = 1; run <= 2; run++) {
      Path runDir = dir.resolve("run-" + run);
      // No packet lost, every control request answered once, the take-over done, bmh master and
      // the rejoined mmh its backup at the end.
      Outcome o = FalseSuspicionTwiceScenarioTest.runPassing("mmh-partition-model-time", runDir, run);
      List<String> notes = o.result().faults().stream().map(AppliedFault::note).toList();
      assertTrue(notes.get(1).contains("healed; mmh stepped down: fenced on the switch by bmh at ")
          && notes.get(1).contains("stepped down when the cut healed at 3500000000 ns"), notes.toString());
      assertTrue(notes.get(2).contains("mmh rejoined: now BACKUP"), notes.toString());
      assertEquals(3000, figure(o, "nic.ch1.received").value(), "run " + run);
      FalseSuspicionTwiceScenarioTest.assertEachPageOpenedOnce(o, run);
      assertCutOffMasterServedNothingAndNoJournalDiverged(runDir, notes.get(1));
      List<String> outcome = new ArrayList<>(DeterminismScenarioTest.modelOutcome(o));
      outcome.addAll(notes);
      outcomes.add(outcome);
      journals.add(TakeoverDeterminismTest.journals(runDir.resolve("data")));
    }
    assertEquals(outcomes.get(0), outcomes.get(1), "model and count figures, invariants, fault notes of run 2");
    assertEquals(journals.get(0), journals.get(1), "journals of run 2");
  }

  /**
   * The old master's tenure holds no event stamped at or after the cut (it acknowledged nothing
   * while cut off) but its step-down, the tenure's last event, at the heal, naming the fencer and
   * the fence's time as the heal's note does; no pair of journals diverged: its tenure 1 is a prefix
   * of bmh's (the step-down is not part of the change log), its tenure 2 is bmh's history, without
   * the step-down.
   */
  private static void assertCutOffMasterServedNothingAndNoJournalDiverged(Path runDir, String healNote)
      throws Exception {
    try (Journals journal = Journals.open(runDir.resolve("data/rack.mv.db"))) {
      Map<String, List<JournalEntry>> events = new TreeMap<>();
      for (String id : IDS) {
        events.put(id, journal.require(id).events(id, 0, Long.MAX_VALUE));
      }
      List<JournalEntry> mmh = events.get("controller-mmh");
      JournalEntry last = mmh.get(mmh.size() - 1);
      ControllerEvent.SteppedDown stepDown = assertInstanceOf(ControllerEvent.SteppedDown.class, last.event());
      assertEquals("bmh", stepDown.fencedBy());
      assertEquals(HEALED_AT, stepDown.at());
      assertEquals(last.seqNr() - 1, stepDown.lastSeqNr());
      assertTrue(healNote.contains("fenced on the switch by bmh at " + stepDown.fencedAt() + " ns")
          && healNote.contains("(lastSeqNr=" + stepDown.lastSeqNr() + ")"), stepDown + " / " + healNote);
      for (JournalEntry e : mmh.subList(0, mmh.size() - 1)) {
        assertTrue(e.event().at() < CUT_AT, "controller-mmh persisted while cut off: " + e);
      }
      for (String id : List.of("controller-bmh", "controller-mmh.tenure-2")) {
        assertTrue(events.get(id).stream().noneMatch(e -> e.event() instanceof ControllerEvent.SteppedDown),
            id + " holds a step-down");
      }
      assertTrue(events.get("controller-bmh").stream().anyMatch(e -> e.event().at() >= CUT_AT),
          "bmh served across the cut");
      for (String a : IDS) {
        for (String b : IDS) {
          Replay.Comparison c = Replay.compare(a + " ~ " + b, events.get(a), events.get(b));
          assertNotEquals(Replay.Verdict.DIVERGED, c.verdict(), c.toString());
        }
      }
      assertEquals(Replay.Verdict.PREFIX,
          Replay.compare("", events.get("controller-mmh"), events.get("controller-bmh")).verdict());
      assertEquals(Replay.Verdict.IDENTICAL,
          Replay.compare("", events.get("controller-mmh.tenure-2"), events.get("controller-bmh")).verdict());
    }
  }
}
