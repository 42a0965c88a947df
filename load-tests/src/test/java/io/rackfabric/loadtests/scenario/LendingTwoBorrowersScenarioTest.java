package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
 * The bundled lending-two-borrowers: gpu1 lent to CH2, returned, lent to CH3 at once, refused to
 * CH2 while CH3 holds it, returned. Each CH writes into the GPU's BAR1 every microsecond; only the
 * writes it issues while it holds the loan reach the GPU, the same on every run.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class LendingTwoBorrowersScenarioTest {

  /** Each CH's traffic: one 64-byte write every microsecond from 0, this many. */
  private static final int WRITES = 700;
  private static final long INTERVAL_NS = 1_000;

  @TempDir Path dir;

  @Test
  void shouldOpenEachBorrowersWindowsOnlyWhileItHoldsTheLoanWhenTheDeviceGoesToAnotherHost() throws Exception {
    Outcome first = BundledTwice.run("lending-two-borrowers", dir);

    List<LoanStepResult> steps = first.result().loans();
    assertFalse(steps.get(4).accepted(), "CH2 is refused while CH3 holds the loan: " + steps.get(4));
    long ch2From = steps.get(1).answeredAt();
    long ch2Until = steps.get(2).answeredAt();
    long ch3From = steps.get(3).answeredAt();
    long ch3Until = steps.get(5).answeredAt();
    assertTrue(ch3From > ch2Until, "CH3 borrows after CH2's return");

    // Each borrower's writes leave its root from its borrow's answer to its return's; the refused
    // borrow opens nothing, and neither loan opens the other host's windows.
    long ch2Through = issuedBefore(ch2Until) - issuedBefore(ch2From);
    long ch3Through = issuedBefore(ch3Until) - issuedBefore(ch3From);
    assertTrue(ch2Through > 100 && ch3Through > 100, ch2Through + ", " + ch3Through);
    assertGate(first, "ch2", WRITES - ch2Through);
    assertGate(first, "ch3", WRITES - ch3Through);
    assertEquals(ch2Through, NicStreamScenarioTest.figure(first, "traffic.ch2-to-gpu.sent"));
    assertEquals(ch3Through, NicStreamScenarioTest.figure(first, "traffic.ch3-to-gpu.sent"));
    assertEquals(ch2Through + ch3Through, first.result().endpointsAtEnd().get("gpu1").writesReceived());
    assertEquals(ch2Through + ch3Through, NicStreamScenarioTest.figure(first, "sink.gpu1.delivered"));
    assertEquals(0, NicStreamScenarioTest.figure(first, "sync.stragglers"));
  }

  private static void assertGate(Outcome o, String host, long refused) {
    EndpointStats.BarWindowRefusal gate = o.result().endpointsAtEnd().get(host).barWindow("gpu1");
    assertEquals(refused, gate.writes(), host + ": refused outside its loan: " + gate);
    assertFalse(gate.open(), host + ": closed at the end");
    assertEquals(refused, NicStreamScenarioTest.figure(o, "bar_window." + host + ".gpu1.refused_writes"));
  }

  private static long issuedBefore(long t) {
    return LendingHotPlugScenarioTest.writesIssuedBy(t, WRITES, INTERVAL_NS);
  }
}
