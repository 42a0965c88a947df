package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.LoanStepResult;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundled lending-hot-plug: CH2 writes into gpu1's BAR1 every microsecond while it borrows,
 * returns and borrows the GPU again; only the writes issued while a loan holds reach the GPU, the
 * others are dropped at CH2's root and counted, the same on every run.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class LendingHotPlugScenarioTest {

  /** The traffic: one 64-byte write every microsecond from 0, this many. */
  private static final int WRITES = 500;
  private static final long INTERVAL_NS = 1_000;

  @TempDir Path dir;

  @Test
  void shouldDeliverOnlyTheWritesIssuedWhileTheLoanHoldsWhenBorrowedReturnedAndBorrowedAgain() throws Exception {
    Outcome first = BundledTwice.run("lending-hot-plug", dir);

    List<LoanStepResult> steps = first.result().loans();
    assertTrue(steps.stream().allMatch(LoanStepResult::accepted), steps.toString());
    long borrowed = steps.get(1).answeredAt();
    long returned = steps.get(2).answeredAt();
    long borrowedAgain = steps.get(3).answeredAt();

    // The writes issued while no loan holds: before the first borrow, and from the return to the
    // second borrow (each change is in force at its answer's arrival at CH2, a little later than
    // the master's decision, and before the next microsecond's write).
    long before = writesIssuedBy(borrowed, WRITES, INTERVAL_NS);
    long between = writesIssuedBy(borrowedAgain, WRITES, INTERVAL_NS)
        - writesIssuedBy(returned, WRITES, INTERVAL_NS);
    EndpointStats ch2 = first.result().endpointsAtEnd().get("ch2");
    EndpointStats.BarWindowRefusal gate = ch2.barWindow("gpu1");
    assertEquals(before + between, gate.writes(), "refused before the borrow and after the return: " + gate);
    assertTrue(before > 90 && between > 90, "both closed stretches refused writes: " + before + ", " + between);
    assertTrue(gate.open(), "open at the end: borrowed again");
    assertEquals(0, gate.reads());

    // The others reached the GPU, every one: during the first loan and at once for the second.
    long delivered = WRITES - gate.writes();
    assertEquals(delivered, first.result().endpointsAtEnd().get("gpu1").writesReceived());
    assertEquals(delivered, NicStreamScenarioTest.figure(first, "sink.gpu1.delivered"));
    assertEquals(gate.writes(), NicStreamScenarioTest.figure(first, "bar_window.ch2.gpu1.refused_writes"));
    assertEquals(0, NicStreamScenarioTest.figure(first, "sync.stragglers"));
  }

  /**
   * The writes of a traffic of {@code writes} writes, one every {@code intervalNs} from 0, issued
   * at a model time at or before {@code t}.
   */
  static long writesIssuedBy(long t, int writes, long intervalNs) {
    return Math.min(writes, t / intervalNs + 1);
  }
}
