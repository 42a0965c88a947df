package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.lending.LoanFailover;
import io.rackfabric.cluster.lending.LoanPlanner;
import io.rackfabric.cluster.topology.TopologyLoader;
import io.rackfabric.host.memory.Plane;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundled lending-lender-link-fails: the lender's primary cable fails while CH2 copies through
 * the GPU it borrowed from CH1; CH2 learns of it from the MH's notification (its own links are
 * whole), and the loan follows its route change to the secondary plane, as when its own cable fails.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class LendingLenderLinkFailsScenarioTest {

  @TempDir Path dir;

  @Test
  void shouldMoveTheLoansWindowsAtTheNotificationAndLoseNothingWhenTheLendersPrimaryLinkFails() throws Exception {
    assertTrue(ScenarioLoader.text("lending-lender-link-fails").contains("target = ch1-rp.pri, at = 3250us"),
        "the fault's time");
    Outcome first = LendingBorrowerLinkFailsScenarioTest.run("lending-lender-link-fails", dir.resolve("a"));
    Outcome second = LendingBorrowerLinkFailsScenarioTest.run("lending-lender-link-fails", dir.resolve("b"));
    LoanFailover.MovedLoan expected = new LoanFailover(new LoanPlanner(TopologyLoader.load("ladon-lending")))
        .afterLinkDown("gpu1", "ch2", "ch1", Plane.PRIMARY);
    LendingBorrowerLinkFailsScenarioTest.assertLoanFollowed(first, second, expected,
        LendingBorrowerLinkFailsScenarioTest.FAULT_NS);
    // CH2's own links are whole, so no AER of its own moves it: the MH's notification naming CH1
    // does, after the MH's verdict and within the fail-over round
    String round = "fault1.link-down.ch1-rp.pri.failover.ch1.";
    double since = NicStreamScenarioTest.figure(first, "dma.borrowed.window_moved_at_ns")
        - LendingBorrowerLinkFailsScenarioTest.FAULT_NS;
    double verdict = NicStreamScenarioTest.figure(first, round + "detection")
        + NicStreamScenarioTest.figure(first, round + "determination");
    double total = NicStreamScenarioTest.figure(first, round + "total");
    assertTrue(since > verdict && since <= total, "moved " + since + " ns after the fault; verdict at " + verdict
        + " ns, round " + total + " ns");
  }
}
