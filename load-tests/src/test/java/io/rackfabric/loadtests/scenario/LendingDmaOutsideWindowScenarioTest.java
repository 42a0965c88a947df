package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.LoanStepResult;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundled lending-dma-outside-window: CH2's IOMMU lets the borrowed GPU's copies into the
 * buffer the controller mapped through and blocks the same copies into a buffer nothing mapped,
 * counting them under the GPU; the same on every run.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class LendingDmaOutsideWindowScenarioTest {

  /** Each workload's copies: 4 KiB doubling to 64 KiB, writes, once each. */
  private static final long BYTES_PER_WORKLOAD = (4 + 8 + 16 + 32 + 64) * 1024L;

  @TempDir Path dir;

  @Test
  void shouldBlockAndCountTheGpusWritesOutsideEveryMappingWhenTheBorrowerChecksLoanDma() throws Exception {
    Outcome first = BundledTwice.run("lending-dma-outside-window", dir);

    List<LoanStepResult> steps = first.result().loans();
    assertTrue(steps.stream().allMatch(LoanStepResult::accepted), steps.toString());

    // Every posted write of the unmapped workload's copies is blocked: the copies' bytes in
    // TLPs of the fabric's max payload (no copy crosses a 4 KiB boundary within a TLP).
    long payload = ConfigFactory.load().getLong("rackfabric.fabric.max-payload");
    assertEquals(BYTES_PER_WORKLOAD / payload, NicStreamScenarioTest.figure(first, "iommu.ch2.blocked.gpu1.writes"));
    assertEquals(0, NicStreamScenarioTest.figure(first, "iommu.ch2.blocked.gpu1.reads"));
    assertEquals(BYTES_PER_WORKLOAD / payload, NicStreamScenarioTest.figure(first, "iommu.ch2.blocked.gpu1"),
        "nothing else of the GPU's blocked: the mapped copies and every MSI went through");
    // Both workloads completed every copy: their MSIs, on the mapped page, arrived.
    assertTrue(NicStreamScenarioTest.figure(first, "dma.mapped.write.64KiB.bandwidth_MBps") > 0);
    assertTrue(NicStreamScenarioTest.figure(first, "dma.unmapped.write.64KiB.bandwidth_MBps") > 0);
    assertEquals(0, NicStreamScenarioTest.figure(first, "sync.stragglers"));
  }
}
