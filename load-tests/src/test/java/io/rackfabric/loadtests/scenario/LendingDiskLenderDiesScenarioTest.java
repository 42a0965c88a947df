package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.NicStreamScenarioTest.figure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.device.disk.DiskReadSequence.DiskReadRecord;
import io.rackfabric.host.device.disk.DiskReadSequence.SurpriseRemoval;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.DiskReadsResult;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundled lending-disk-lender-dies: the back-to-back cable goes down under the borrower's
 * NVMe reads; its disk driver declares a surprise removal at its watchdog, the read in flight is
 * lost, the reads before it stand, the same on every run, and the removal's time follows the
 * watchdog's setting.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class LendingDiskLenderDiesScenarioTest {

  static final long FAULT_NS = 1_000_000;
  static final String WATCHDOG = "rackfabric.host.disk-driver.msi-watchdog";

  @TempDir Path dir;

  @Test
  void shouldDeclareASurpriseRemovalAndLoseOnlyTheReadInFlightWhenTheLendersCableGoes() throws Exception {
    assertTrue(ScenarioLoader.text("lending-disk-lender-dies").contains("target = lender-pxh.cable, at = 1ms"));
    Outcome first = run("a", Map.of());
    Outcome second = run("b", Map.of());
    assertTrue(first.passed(), DeterminismScenarioTest.modelOutcome(first).toString());
    assertEquals(TakeoverDeterminismTest.modelAndCount(first), TakeoverDeterminismTest.modelAndCount(second),
        "two runs give identical model figures");
    assertEquals(0, figure(first, "sync.stragglers"), "the kernel's counts stay exact");

    DiskReadsResult reads = first.result().diskReads().get(0);
    SurpriseRemoval removal = reads.removal();
    assertNotNull(removal, "the borrower's driver saw the disk go");
    assertTrue(removal.lost().doorbellAt() < FAULT_NS, "rung before the cable went: " + removal);
    assertTrue(!reads.reads().isEmpty()
        && reads.reads().stream().allMatch(r -> r.msiAt() <= removal.lost().doorbellAt()),
        "the completed reads ended before it: " + reads.reads().stream().map(DiskReadRecord::msiAt).toList());
    assertEquals(reads.spec().count(), reads.reads().size() + 1 + removal.notStarted(),
        "each planned read completed, lost or never started");
    long watchdog = 10_000_000;
    // The borrower's root refuses a read into its dead cable at once: the probe's answer takes no time.
    assertEquals(removal.lost().doorbellAt() + watchdog, removal.at(), "declared at the watchdog: " + removal);
    assertTrue(removal.reason().contains("UNSUPPORTED_REQUEST"), removal.reason());
    assertEquals(removal.at(), figure(first, "disk.borrowed.removed_at_ns"));
    assertEquals(reads.reads().size(), figure(first, "disk.borrowed.reads_completed"));
    assertEquals(8, figure(first, "disk.borrowed.blocks_lost"));
    assertEquals(removal.notStarted(), figure(first, "disk.borrowed.reads_not_started"));

    // The removal's time is the lost read's doorbell plus the watchdog plus the probe's answer.
    Outcome longer = run("c", Map.of(WATCHDOG, "12ms"));
    SurpriseRemoval later = longer.result().diskReads().get(0).removal();
    assertEquals(removal.lost(), later.lost(), "the same read was in flight");
    assertEquals(removal.at() + 2_000_000, later.at(), "2 ms more watchdog, 2 ms later");
  }

  private Outcome run(String name, Map<String, String> settings) throws Exception {
    Scenario s = ScenarioLoader.loadBundled("lending-disk-lender-dies", ScenarioRunnerTest.KINDS,
        new ScenarioOptions(null, null, null, Map.of(), null, settings));
    return new ScenarioRunner(ScenarioRunnerTest.KINDS).run(s, dir.resolve(name), ScenarioRunnerTest.quiet());
  }
}
