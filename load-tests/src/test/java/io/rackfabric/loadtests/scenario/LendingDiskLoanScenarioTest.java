package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.device.disk.CompletionEntry;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.DiskReadsResult;
import io.rackfabric.loadtests.scenario.api.LoanStepResult;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundled lending-disk-loan, with fewer reads: CH2 borrows CH1's disk through the controller,
 * the borrow keeps its disk driver's MSI-X word as the loan's MSI path, and the driver programs
 * vector 2 of the disk's table with that word through the loan's DMA window; CH2's IOMMU lets the
 * queues, the data and every MSI-X message through; CH1 then reads its own disk.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class LendingDiskLoanScenarioTest {

  static final int COUNT = 20;
  /**
   * A borrowed read's NTB crossings on its critical path, as lending-disk-latency-b2b's
   * ({@link DiskLatencyScenarioTest#CROSSINGS}), none on a local read.
   */
  static final int CROSSINGS = DiskLatencyScenarioTest.CROSSINGS;
  /**
   * NTB ports each crossing goes through in the Ladon rack: out of CH2's and into CH1's (one chip,
   * two translations, as `rack route --topology ladon-lending --from ch2` shows).
   */
  static final int NTB_PORTS_PER_CROSSING = 2;

  @TempDir Path dir;

  @Test
  void shouldReadThroughTheLoansMsiPathWithNothingBlockedAndGiveIdenticalFiguresWhenRunTwice() throws Exception {
    Outcome first = run(ScenarioOptions.NONE, "a");
    Outcome second = run(ScenarioOptions.NONE, "b");

    assertTrue(first.passed(), DeterminismScenarioTest.modelOutcome(first).toString());
    Map<String, Double> disk = DiskLatencyScenarioTest.disk(first);
    assertEquals(disk, DiskLatencyScenarioTest.disk(second), "two runs give identical figures");
    assertEquals(TakeoverDeterminismTest.modelAndCount(first), TakeoverDeterminismTest.modelAndCount(second));
    assertEquals(COUNT, disk.get("disk.borrowed.reads"));
    assertEquals(COUNT, disk.get("disk.local.reads"));
    for (DiskReadsResult r : first.result().diskReads()) {
      assertEquals("", r.error());
      assertTrue(r.reads().stream().allMatch(x -> x.status() == CompletionEntry.Status.SUCCESS && x.dataOk()),
          r.spec().name() + ": every read succeeded with its LBA's data: " + r.reads());
    }
    LoanStepResult borrow = first.result().loans().get(1);
    assertTrue(borrow.accepted() && borrow.events().stream().anyMatch(e -> e.startsWith(
        "MsiPathOpened[device=disk1, borrower=ch2, msiAddress=" + 0x1_0002_0000L + ",")),
        "the borrow kept the disk driver's MSI-X word as the loan's MSI path: " + borrow);
    LoanStepResult giveBack = first.result().loans().get(3);
    assertTrue(giveBack.accepted() && giveBack.events().get(0).startsWith("MsiPathClosed[device=disk1, borrower=ch2"),
        "the return closed it: " + giveBack);
    assertTrue(first.result().diskReads().get(1).reads().get(0).doorbellAt() > giveBack.answeredAt(),
        "CH1 read its disk after the return: " + giveBack);
    assertTrue(TakeoverDeterminismTest.modelAndCount(first).keySet().stream().noneMatch(n -> n.startsWith("iommu.")),
        "nothing of the disk's blocked at CH2's root: " + TakeoverDeterminismTest.modelAndCount(first));
    assertTrue(disk.get("disk.borrowed.latency_min_ns") > disk.get("disk.local.latency_max_ns"), disk.toString());
  }

  @Test
  void shouldMoveTheDifferenceByTwoNtbPortsPerCrossingWhenOnlyTheNtbLatencyChanges() throws Exception {
    Map<String, Double> low = DiskLatencyScenarioTest.disk(run(DiskLatencyScenarioTest.setting("ntb-latency", "300ns"),
        "ntb300"));
    Map<String, Double> high = DiskLatencyScenarioTest.disk(run(DiskLatencyScenarioTest.setting("ntb-latency", "400ns"),
        "ntb400"));

    assertEquals(low.get("disk.local.latency_median_ns"), high.get("disk.local.latency_median_ns"),
        "no NTB on a local read");
    assertEquals(CROSSINGS * NTB_PORTS_PER_CROSSING * 100,
        high.get("disk.borrowed_minus_local_ns") - low.get("disk.borrowed_minus_local_ns"),
        "each of the " + CROSSINGS + " crossings through two NTB ports: " + low + " vs " + high);
  }

  private Outcome run(ScenarioOptions options, String name) throws Exception {
    return DiskLatencyScenarioTest.run(dir, "lending-disk-loan", 2, COUNT, options, name);
  }
}
