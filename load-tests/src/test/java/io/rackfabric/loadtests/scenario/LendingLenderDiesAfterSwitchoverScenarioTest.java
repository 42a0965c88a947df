package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.device.gpu.CopySequence.SurpriseRemoval;
import io.rackfabric.host.lending.LoanFollower;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.GpuCopiesResult;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.replay.JournalEntry;
import io.rackfabric.persistence.replay.JournalReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundled lending-lender-dies-after-switchover: the BMH, master after a switchover, removes the
 * lender that died and tells the borrower of a loan the MMH made (its channel came to the BMH with
 * the loan's replicated events), the same on every run.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class LendingLenderDiesAfterSwitchoverScenarioTest {

  /** The switchover, then the lender's cables, in the scenario. */
  static final long SWITCHOVER_NS = 1_000_000;
  static final long FAULT_NS = 3_000_000;

  @TempDir Path dir;

  @Test
  void shouldTellTheBorrowerFromTheNewMasterWhenTheLenderDiesAfterASwitchover() throws Exception {
    String text = ScenarioLoader.text("lending-lender-dies-after-switchover");
    assertTrue(text.contains("kind = switchover, target = mmh, at = 1ms")
        && text.contains("target = nt-sec.ch1, at = 3ms"), "the faults' times");
    Outcome first = run("a");
    Outcome second = run("b");

    assertTrue(first.passed(), DeterminismScenarioTest.modelOutcome(first).toString());
    assertEquals(TakeoverDeterminismTest.modelAndCount(first), TakeoverDeterminismTest.modelAndCount(second),
        "two runs give identical model figures");
    assertEquals(0, NicStreamScenarioTest.figure(first, "sync.stragglers"), "the kernel's counts stay exact");

    GpuCopiesResult copies = first.result().gpuCopies().get(0);
    SurpriseRemoval removal = copies.removal();
    assertNotNull(removal, "the borrower's driver saw the GPU go");
    LoanFollower.LoanEnd end = copies.loanEnd();
    assertNotNull(end, "the borrower heard the new master end its loan (before, it heard nothing and its"
        + " watchdog found the GPU gone)");
    assertEquals(end.noticedAt(), removal.at(), "the surprise removal is the hot-remove: " + removal);
    assertTrue(removal.reason().contains("lender=ch1 was removed"), removal.reason());

    // Only the BMH's tenure removed CH1: the MMH, backup since the switchover, holds the same event
    // in its replica's journal, numbered after the hand-over.
    long handedOverAt = (long) NicStreamScenarioTest.figure(first, "switchover1.mmh.seq_nr");
    for (String id : List.of("controller-mmh", "controller-bmh")) {
      List<Long> removedSeqNrs = new ArrayList<>();
      List<ControllerEvent.HostRemoved> removed = new ArrayList<>();
      try (JournalReader reader = JournalReader.open(dir.resolve("a").resolve("data").resolve("rack" + JournalReader.SUFFIX))) {
        for (JournalEntry e : reader.events(id, 0, Long.MAX_VALUE)) {
          if (e.event() instanceof ControllerEvent.HostRemoved r) {
            removed.add(r);
            removedSeqNrs.add(e.seqNr());
          }
        }
      }
      assertEquals(1, removed.size(), id + ": " + removed);
      assertEquals("ch1", removed.get(0).host());
      assertTrue(removed.get(0).at() > FAULT_NS && removed.get(0).at() < FAULT_NS + 10_000,
          "at the second cable's error, handled by the MH's AER driver: " + removed);
      assertTrue(removedSeqNrs.get(0) > handedOverAt, id + ": after the hand-over at seqNr " + handedOverAt);
      assertEquals(end.endedAt(), removed.get(0).at(), "the borrower was told at the removal: " + end);
    }
    assertTrue(end.endedAt() > SWITCHOVER_NS, "after the switchover: " + end);
  }

  private Outcome run(String name) throws Exception {
    Scenario s = ScenarioLoader.loadBundled("lending-lender-dies-after-switchover", ScenarioRunnerTest.KINDS,
        ScenarioOptions.NONE);
    return new ScenarioRunner(ScenarioRunnerTest.KINDS).run(s, dir.resolve(name), ScenarioRunnerTest.quiet());
  }
}
