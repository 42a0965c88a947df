package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.rackfabric.host.device.disk.DiskDriverSettings;
import io.rackfabric.host.device.disk.DiskReadSequence.DiskReadRecord;
import io.rackfabric.host.device.disk.DiskReadSequence.SurpriseRemoval;
import io.rackfabric.host.lending.LoanFollower;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.DiskReadsResult;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundled lending-disk-loan-lender-dies: CH1's links go down on both planes while CH2 reads
 * the disk it borrowed from CH1; the controller removes CH1 and tells CH2, whose disk driver is
 * told the disk was hot-removed then (a surprise removal, the BAR window closed) long before its
 * watchdog would have found it gone; the read in flight is lost, the reads before it stand, the
 * same on every run.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class LendingDiskLoanLenderDiesScenarioTest {

  @TempDir Path dir;

  @Test
  void shouldHotRemoveTheDiskAtTheControllersNoticeAndLoseOnlyTheReadInFlightWhenTheLenderDies() throws Exception {
    assertTrue(ScenarioLoader.text("lending-disk-loan-lender-dies").contains("target = nt-sec.ch1, at = 3ms"),
        "the fault's time");
    Outcome first = run("a");
    Outcome second = run("b");

    assertTrue(first.passed(), DeterminismScenarioTest.modelOutcome(first).toString());
    assertEquals(TakeoverDeterminismTest.modelAndCount(first), TakeoverDeterminismTest.modelAndCount(second),
        "two runs give identical model figures");
    DiskReadsResult reads = first.result().diskReads().get(0);
    assertEquals("", reads.error());
    SurpriseRemoval removal = reads.removal();
    assertNotNull(removal, "the borrower's driver saw the disk go");
    LoanFollower.LoanEnd end = reads.loanEnd();
    assertNotNull(end, "the borrower heard the controller end its loan");
    long fault = LendingLenderDiesScenarioTest.FAULT_NS;
    long watchdog = DiskDriverSettings.create(ConfigFactory.load()).msiWatchdogNs();
    assertEquals(end.noticedAt(), removal.at(), "the surprise removal is the hot-remove");
    assertEquals(end.noticedAt(), end.removedAt());
    assertTrue(end.endedAt() > fault && removal.at() < removal.lost().doorbellAt() + watchdog,
        "after the controller's removal, before the watchdog: " + end);
    assertTrue(removal.reason().contains("lender=ch1 was removed"), removal.reason());
    assertTrue(removal.lost().doorbellAt() < fault, "rung before the lender died: " + removal.lost());
    assertTrue(reads.reads().stream().allMatch(r -> r.msiAt() <= removal.lost().doorbellAt()),
        "every completed read ended before it: " + reads.reads().stream().map(DiskReadRecord::msiAt).toList());
    assertEquals(reads.spec().count(), reads.reads().size() + 1 + removal.notStarted(),
        "each planned read completed, lost or never started");
    assertEquals(end.endedAt(), NicStreamScenarioTest.figure(first, "disk.borrowed.loan_ended_at_ns"));
    assertEquals(removal.at(), NicStreamScenarioTest.figure(first, "disk.borrowed.removed_at_ns"));
    assertEquals(0, NicStreamScenarioTest.figure(first, "bar_window.ch2.disk1.open_at_end"),
        "CH2's window onto the disk was closed by the hot-remove");
  }

  private Outcome run(String name) throws Exception {
    Scenario s = ScenarioLoader.loadBundled("lending-disk-loan-lender-dies", ScenarioRunnerTest.KINDS,
        ScenarioOptions.NONE);
    return new ScenarioRunner(ScenarioRunnerTest.KINDS).run(s, dir.resolve(name), ScenarioRunnerTest.quiet());
  }
}
