package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.lending.LoanFailover;
import io.rackfabric.cluster.lending.LoanPlanner;
import io.rackfabric.cluster.topology.TopologyLoader;
import io.rackfabric.host.device.gpu.CopySequence.CopyRecord;
import io.rackfabric.host.device.gpu.CopySequence.ResentCopy;
import io.rackfabric.host.device.gpu.CopySequence.WindowMove;
import io.rackfabric.host.device.gpu.GpuCopyPlan;
import io.rackfabric.host.lending.LoanFollower.LoanMove;
import io.rackfabric.host.memory.Plane;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.GpuCopiesResult;
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
 * The bundled lending-borrower-link-fails: CH2's primary cable fails while CH2 copies through the
 * GPU it borrowed from CH1; the loan follows CH2's fail-over to the secondary plane (the driver's
 * windows, the copy in flight rung again, the controller's record), every copy completes once,
 * and the loan is intact, the same on every run.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class LendingBorrowerLinkFailsScenarioTest {

  /** CH2's primary link goes down then, in the scenario. */
  static final long FAULT_NS = 3_250_000;

  @TempDir Path dir;

  @Test
  void shouldMoveTheLoansWindowsAndLoseNothingWhenTheBorrowersPrimaryLinkFails() throws Exception {
    assertTrue(ScenarioLoader.text("lending-borrower-link-fails").contains("target = ch2-rp.pri, at = 3250us"),
        "the fault's time");
    Outcome first = run("lending-borrower-link-fails", dir.resolve("a"));
    Outcome second = run("lending-borrower-link-fails", dir.resolve("b"));
    assertLoanFollowed(first, second, new LoanFailover(new LoanPlanner(TopologyLoader.load("ladon-lending")))
        .afterLinkDown("gpu1", "ch2", "ch2", Plane.PRIMARY), FAULT_NS);
  }

  /**
   * Two runs of a one-plane failure under the loan gave the same figures, and the first: the loan's
   * windows moved as {@code expected} (the topology's secondary plane, not a constant) after the
   * fault at {@code faultNs}, the copy in flight rung again and counted once, the move recorded by
   * the controller, every copy completed, the loan intact.
   */
  static void assertLoanFollowed(Outcome first, Outcome second, LoanFailover.MovedLoan expected, long faultNs) {
    assertTrue(first.passed(), DeterminismScenarioTest.modelOutcome(first).toString());
    assertEquals(TakeoverDeterminismTest.modelAndCount(first), TakeoverDeterminismTest.modelAndCount(second),
        "two runs give identical model figures");
    assertEquals(0, NicStreamScenarioTest.figure(first, "sync.stragglers"), "the kernel's counts stay exact");

    GpuCopiesResult copies = first.result().gpuCopies().get(0);
    assertEquals("", copies.error());
    assertNull(copies.removal(), "the GPU was never taken for gone");
    assertEquals(copies.spec().copies().size(), copies.copies().size(), "every planned copy completed, once each");

    assertEquals(1, copies.windowMoves().size(), "one move: " + copies.windowMoves());
    WindowMove move = copies.windowMoves().get(0);
    assertEquals(expected.barShift(0), move.registersShift());
    assertEquals(expected.dmaShift(), move.dmaShift());
    assertTrue(move.at() > faultNs, "after the fault, at the borrower's route change: " + move);
    ResentCopy resent = move.resent();
    assertNotNull(resent, "a copy was in flight at the fault");
    assertTrue(resent.doorbellAt() < faultNs && resent.resentAt() == move.at(), resent.toString());
    CopyRecord again = copies.copies().get(resent.index());
    assertEquals(resent.doorbellAt(), again.doorbellAt(), "the copy counts once, from its first doorbell");
    assertTrue(again.msiAt() > move.at(), "its MSI came through the moved window: " + again);

    LoanMove recorded = copies.loanMoves().get(0);
    assertEquals(Controller.Status.ACCEPTED, recorded.status(), recorded.toString());
    assertEquals(expected.after().window().deviceSide(), recorded.windows().windowBase());
    assertEquals(move.at(), recorded.at());

    assertEquals(move.at(), NicStreamScenarioTest.figure(first, "dma.borrowed.window_moved_at_ns"));
    assertEquals(1, NicStreamScenarioTest.figure(first, "dma.borrowed.copies_resent"));
    assertEquals(resent.bytes(), NicStreamScenarioTest.figure(first, "dma.borrowed.bytes_resent"));
    assertEquals(copies.copies().size(), NicStreamScenarioTest.figure(first, "dma.borrowed.copies_completed"));
    assertEquals(1, NicStreamScenarioTest.figure(first, "dma.borrowed.window_move_recorded"));

    List<LoanStepResult> loans = first.result().loans();
    LoanStepResult ret = loans.get(loans.size() - 1);
    assertTrue(ret.accepted(), "the loan is intact: its borrower's return is accepted: " + ret);
  }

  @Test
  void shouldRingAReadCopyAgainAndAccountItsFailedFirstAttemptWhenTheFaultHitsARead() throws Exception {
    // The same file with the fault at 17.25 ms, inside the 16 MiB read: the GPU's reads into CH2's RAM
    // are refused at the dead cable, so the GPU fails its first attempt (its MSI lost on the way).
    String text = ScenarioLoader.text("lending-borrower-link-fails").replace("at = 3250us", "at = 17250us");
    Scenario s = ScenarioLoader.parse(text, "lending-borrower-link-fails-read.conf", null, ScenarioRunnerTest.KINDS,
        ScenarioOptions.NONE);
    Outcome o = new ScenarioRunner(ScenarioRunnerTest.KINDS).run(s, dir.resolve("read"), ScenarioRunnerTest.quiet());

    assertTrue(o.passed(), DeterminismScenarioTest.modelOutcome(o).toString());
    GpuCopiesResult copies = o.result().gpuCopies().get(0);
    assertEquals("", copies.error(), "the failed first attempt is the resend's, accounted");
    assertEquals(copies.spec().copies().size(), copies.copies().size());
    ResentCopy resent = copies.windowMoves().get(0).resent();
    assertEquals(GpuCopyPlan.Direction.READ, resent.direction(), resent.toString());
    assertTrue(resent.doorbellAt() < 17_250_000 && resent.resentAt() > 17_250_000, resent.toString());
  }

  /** Bundled {@code scenario}, its files under {@code dir}. */
  static Outcome run(String scenario, Path dir) throws Exception {
    Scenario s = ScenarioLoader.loadBundled(scenario, ScenarioRunnerTest.KINDS, ScenarioOptions.NONE);
    return new ScenarioRunner(ScenarioRunnerTest.KINDS).run(s, dir, ScenarioRunnerTest.quiet());
  }
}
