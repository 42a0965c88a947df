package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FaultStepsTest {

  @Test
  void shouldSayNothingWhenTheRackIsHeldBeforeTheCut() {
    assertNull(FaultSteps.passedNote(50_000, 49_999));
    assertNull(FaultSteps.passedNote(50_000, Long.MIN_VALUE), "free of the kernel: no model clock to check");
  }

  @Test
  void shouldSayNothingWhenEventsAtTheCutItselfWereHandled() {
    // An event at the cut handled before the fault's own is no straggler: equal stamps are in order.
    assertNull(FaultSteps.passedNote(0, 0));
  }

  @Test
  void shouldNameHowFarTheRackHadGotWhenItPassedTheCut() {
    String note = FaultSteps.passedNote(50_000, 59_053);
    assertTrue(note.contains("59053 ns") && note.contains("50000 ns") && note.contains("sync.stragglers"), note);
  }
}
