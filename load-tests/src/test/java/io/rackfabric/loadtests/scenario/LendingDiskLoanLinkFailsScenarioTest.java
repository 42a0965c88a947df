package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.lending.LoanFailover;
import io.rackfabric.cluster.lending.LoanPlanner;
import io.rackfabric.cluster.topology.TopologyLoader;
import io.rackfabric.host.device.disk.CompletionEntry;
import io.rackfabric.host.device.disk.DiskReadSequence.DiskReadRecord;
import io.rackfabric.host.device.disk.DiskReadSequence.ResentRead;
import io.rackfabric.host.device.disk.DiskReadSequence.WindowMove;
import io.rackfabric.host.lending.LoanFollower.LoanMove;
import io.rackfabric.host.memory.Plane;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.DiskReadsResult;
import io.rackfabric.loadtests.scenario.api.LoanStepResult;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.persistence.controller.Controller;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundled lending-disk-loan-link-fails: CH2's primary cable fails while CH2 reads from the
 * disk it borrowed from CH1 through the controller; the disk driver follows the loan to the
 * secondary plane (the disk reset and set up again on the moved addresses, the read in flight
 * submitted again), the controller records the move, every read completes once with its data, and
 * the loan is intact, the same on every run.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class LendingDiskLoanLinkFailsScenarioTest {

  /** CH2's primary link goes down then, in the scenario. */
  static final long FAULT_NS = 1_500_000;

  @TempDir Path dir;

  @Test
  void shouldResetTheDiskThroughTheMovedWindowsAndLoseNoReadWhenTheBorrowersPrimaryLinkFails() throws Exception {
    assertTrue(ScenarioLoader.text("lending-disk-loan-link-fails").contains("target = ch2-rp.pri, at = 1500us"),
        "the fault's time");
    Outcome first = LendingBorrowerLinkFailsScenarioTest.run("lending-disk-loan-link-fails", dir.resolve("a"));
    Outcome second = LendingBorrowerLinkFailsScenarioTest.run("lending-disk-loan-link-fails", dir.resolve("b"));
    assertTrue(first.passed(), DeterminismScenarioTest.modelOutcome(first).toString());
    assertEquals(TakeoverDeterminismTest.modelAndCount(first), TakeoverDeterminismTest.modelAndCount(second),
        "two runs give identical model figures");
    assertEquals(0, NicStreamScenarioTest.figure(first, "sync.stragglers"), "the kernel's counts stay exact");

    DiskReadsResult reads = first.result().diskReads().get(0);
    assertEquals("", reads.error());
    assertNull(reads.removal(), "the disk was never taken for gone");
    assertEquals(reads.spec().count(), reads.reads().size(), "every planned read completed, once each");
    assertTrue(reads.reads().stream().allMatch(r -> r.status() == CompletionEntry.Status.SUCCESS && r.dataOk()),
        "each with its blocks in the buffer");

    LoanFailover.MovedLoan expected = new LoanFailover(new LoanPlanner(TopologyLoader.load("ladon-lending")))
        .afterLinkDown("disk1", "ch2", "ch2", Plane.PRIMARY);
    assertEquals(1, reads.windowMoves().size(), "one move: " + reads.windowMoves());
    WindowMove move = reads.windowMoves().get(0);
    assertEquals(expected.barShift(0), move.registersShift(), "the topology's secondary plane, not a constant");
    assertEquals(expected.dmaShift(), move.dmaShift());
    assertTrue(move.at() > FAULT_NS, "after the fault, at the borrower's route change: " + move);
    ResentRead resent = move.resent();
    assertNotNull(resent, "a read was in flight at the fault");
    assertTrue(resent.doorbellAt() < FAULT_NS && resent.resentAt() == move.at(), resent.toString());
    DiskReadRecord again = reads.reads().get(resent.index());
    assertEquals(resent.doorbellAt(), again.doorbellAt(), "the read counts once, from its first doorbell");
    assertTrue(again.msiAt() > move.at(), "its MSI-X came through the moved window: " + again);
    assertTrue(reads.reads().subList(resent.index() + 1, reads.reads().size()).stream()
        .allMatch(r -> r.doorbellAt() > move.at()), "the reads after it went on through the moved windows");

    LoanMove recorded = reads.loanMoves().get(0);
    assertEquals(Controller.Status.ACCEPTED, recorded.status(), recorded.toString());
    assertEquals(expected.after().window().deviceSide(), recorded.windows().windowBase());
    assertEquals(move.at(), recorded.at());
    assertTrue(recorded.driverRungAgain().contains("read " + resent.index()), recorded.toString());

    assertEquals(move.at(), NicStreamScenarioTest.figure(first, "disk.borrowed.window_moved_at_ns"));
    assertEquals(1, NicStreamScenarioTest.figure(first, "disk.borrowed.reads_resent"));
    assertEquals(resent.blocks(), NicStreamScenarioTest.figure(first, "disk.borrowed.blocks_resent"));
    assertEquals(reads.reads().size(), NicStreamScenarioTest.figure(first, "disk.borrowed.reads_completed"));
    assertEquals(1, NicStreamScenarioTest.figure(first, "disk.borrowed.window_move_recorded"));

    List<LoanStepResult> loans = first.result().loans();
    assertTrue(loans.get(loans.size() - 1).accepted(), "the loan is intact: its borrower's return is accepted");
    DiskReadsResult local = first.result().diskReads().get(1);
    assertEquals(local.spec().count(), local.reads().size(), "the lender reads its disk after the return");
  }

  @Test
  void shouldFollowTheLendersFailOverToo() throws Exception {
    // The same file with the lender's primary cable failing: CH2 moves CH1 to the secondary plane at
    // the MMH's notification, and the loan follows that route change the same way.
    String text = ScenarioLoader.text("lending-disk-loan-link-fails").replace("target = ch2-rp.pri", "target = ch1-rp.pri");
    Scenario s = ScenarioLoader.parse(text, "lending-disk-loan-lender-link-fails.conf", null, ScenarioRunnerTest.KINDS,
        ScenarioOptions.NONE);
    Outcome o = new ScenarioRunner(ScenarioRunnerTest.KINDS).run(s, dir.resolve("lender"), ScenarioRunnerTest.quiet());

    assertTrue(o.passed(), DeterminismScenarioTest.modelOutcome(o).toString());
    DiskReadsResult reads = o.result().diskReads().get(0);
    assertEquals(reads.spec().count(), reads.reads().size());
    LoanFailover.MovedLoan expected = new LoanFailover(new LoanPlanner(TopologyLoader.load("ladon-lending")))
        .afterLinkDown("disk1", "ch2", "ch1", Plane.PRIMARY);
    WindowMove move = reads.windowMoves().get(0);
    assertEquals(expected.barShift(0), move.registersShift());
    assertEquals(expected.dmaShift(), move.dmaShift());
    assertTrue(move.at() > FAULT_NS, move.toString());
    assertEquals(expected.after().window().deviceSide(), reads.loanMoves().get(0).windows().windowBase());
  }
}
