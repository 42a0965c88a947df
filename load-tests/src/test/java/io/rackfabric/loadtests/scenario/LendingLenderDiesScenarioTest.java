package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.rackfabric.host.device.gpu.CopySequence.CopyRecord;
import io.rackfabric.host.device.gpu.CopySequence.LostCopy;
import io.rackfabric.host.device.gpu.CopySequence.SurpriseRemoval;
import io.rackfabric.host.device.gpu.GpuDriverSettings;
import io.rackfabric.host.lending.LoanFollower;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.GpuCopiesResult;
import io.rackfabric.loadtests.scenario.api.LoanStepResult;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.nio.file.Path;
import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.replay.JournalEntry;
import io.rackfabric.persistence.replay.JournalReader;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundled lending-lender-dies: CH1's links go down on both planes while CH2 copies through
 * the GPU it borrowed from CH1; the controller removes CH1 and tells CH2, whose driver hot-removes
 * the GPU then (a surprise removal, its BAR windows closed), the copy in flight is lost, the copies before it stand, and the rest of the rack goes on, the same on
 * every run.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class LendingLenderDiesScenarioTest {

  /** Both of CH1's links go down then, in the scenario. */
  static final long FAULT_NS = 3_000_000;

  @TempDir Path dir;

  @Test
  void shouldDeclareASurpriseRemovalAndLoseOnlyTheCopyInFlightWhenTheLenderDies() throws Exception {
    assertTrue(ScenarioLoader.text("lending-lender-dies").contains("target = nt-sec.ch1, at = 3ms"),
        "the fault's time");
    Outcome first = run("a");
    Outcome second = run("b");

    assertTrue(first.passed(), DeterminismScenarioTest.modelOutcome(first).toString());
    assertEquals(TakeoverDeterminismTest.modelAndCount(first), TakeoverDeterminismTest.modelAndCount(second), "two runs give identical model figures");
    assertEquals(0, NicStreamScenarioTest.figure(first, "sync.stragglers"), "the kernel's counts stay exact");

    GpuCopiesResult copies = first.result().gpuCopies().get(0);
    assertEquals("", copies.error());
    SurpriseRemoval removal = copies.removal();
    assertNotNull(removal, "the borrower's driver saw the GPU go");
    assertEquals(1, removal.lost().size(), "one copy was in flight: " + removal);
    LostCopy lost = removal.lost().get(0);
    assertTrue(lost.doorbellAt() < FAULT_NS, "rung before the lender died: " + lost);
    assertTrue(copies.copies().stream().allMatch(c -> c.msiAt() <= lost.doorbellAt()),
        "every completed copy ended before it: " + copies.copies().stream().map(CopyRecord::msiAt).toList());
    assertTrue(!copies.copies().isEmpty(), "copies completed before the fault");
    assertEquals(copies.spec().copies().size(), copies.copies().size() + 1 + removal.notStarted(),
        "each planned copy completed, lost or never started");

    // The controller's removal of CH1 reached CH2's driver, which hot-removed the GPU then: long
    // before the watchdog would have found it gone.
    LoanFollower.LoanEnd end = copies.loanEnd();
    assertNotNull(end, "the borrower heard the controller end its loan");
    long watchdog = GpuDriverSettings.create(ConfigFactory.load()).msiWatchdogNs();
    assertEquals(end.noticedAt(), removal.at(), "the surprise removal is the hot-remove: " + removal);
    assertTrue(end.endedAt() > FAULT_NS && end.noticedAt() > end.endedAt()
        && removal.at() < lost.doorbellAt() + watchdog, "after the controller's removal, before the watchdog: " + end);
    assertTrue(removal.reason().contains("lender=ch1 was removed"), removal.reason());
    assertEquals(end.endedAt(), NicStreamScenarioTest.figure(first, "dma.borrowed.loan_ended_at_ns"));
    assertEquals(end.noticedAt() - end.endedAt(), NicStreamScenarioTest.figure(first, "dma.borrowed.loan_end_notice_ns"));
    assertEquals(0, NicStreamScenarioTest.figure(first, "bar_window.ch2.gpu1.open_at_end"),
        "CH2's windows onto the GPU were closed by the hot-remove");

    assertEquals(removal.at(), NicStreamScenarioTest.figure(first, "dma.borrowed.removed_at_ns"));
    assertEquals(copies.copies().size(), NicStreamScenarioTest.figure(first, "dma.borrowed.copies_completed"));
    assertEquals(1, NicStreamScenarioTest.figure(first, "dma.borrowed.copies_lost"));
    assertEquals(lost.bytes(), NicStreamScenarioTest.figure(first, "dma.borrowed.bytes_lost"));
    assertEquals(removal.notStarted(), NicStreamScenarioTest.figure(first, "dma.borrowed.copies_not_started"));

    List<LoanStepResult> loans = first.result().loans();
    LoanStepResult ret = loans.get(loans.size() - 1);
    assertTrue(!ret.accepted() && ret.answeredAt() > removal.at() && ret.detail().contains("not borrowed"),
        "the controller ended the loan with its lender and refuses the return, naming why: " + ret);
    // The MMH took CH1 as gone once both its cable ports failed, and the controller removed it then,
    // its loan ending with it: in the journals of both management hosts alike.
    for (String id : List.of("controller-mmh", "controller-bmh")) {
      List<ControllerEvent.HostRemoved> removed = new ArrayList<>();
      try (JournalReader reader = JournalReader.open(dir.resolve("a").resolve("data").resolve("rack" + JournalReader.SUFFIX))) {
        for (JournalEntry e : reader.events(id, 0, Long.MAX_VALUE)) {
          if (e.event() instanceof ControllerEvent.HostRemoved r) {
            removed.add(r);
          }
        }
      }
      assertEquals(1, removed.size(), id + ": " + removed);
      assertEquals("ch1", removed.get(0).host());
      assertTrue(removed.get(0).at() > FAULT_NS && removed.get(0).at() < FAULT_NS + 10_000,
          "at the second cable's error, handled by the MH's AER driver: " + removed);
      assertTrue(end.endedAt() >= removed.get(0).at(), "the borrower was told at the removal's answer: " + end);
    }
    assertEquals(NicStreamScenarioTest.figure(first, "traffic.ch2-to-mmh.sent"), NicStreamScenarioTest.figure(first, "sink.mmh.delivered"),
        "the other traffic lost nothing");
  }

  private Outcome run(String name) throws Exception {
    Scenario s = ScenarioLoader.loadBundled("lending-lender-dies", ScenarioRunnerTest.KINDS, ScenarioOptions.NONE);
    return new ScenarioRunner(ScenarioRunnerTest.KINDS).run(s, dir.resolve(name), ScenarioRunnerTest.quiet());
  }
}
