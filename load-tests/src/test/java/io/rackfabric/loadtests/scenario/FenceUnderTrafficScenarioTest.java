package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.scenario.ScenarioRunner.Checked;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The backup fences a live master (its heartbeats held, as in {@code mmh-false-suspicion}) while
 * the master writes into CH1 through tor, in one JVM under the model-time kernel. The fencing
 * moves tor's port toward CH1 out of the master's virtual switch: each write routed before the
 * reassignment's model time reaches CH1, each one after it has no way there. Which is which
 * follows from model time alone, so two runs give the same figures and journals, and no event
 * reaches a port behind its clock.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class FenceUnderTrafficScenarioTest {

  /** Writes every 2 us from 640 ms of model time for 20 ms: across the take-over's fencing. */
  static final String SCENARIO = """
      scenario {
        name = fence-under-traffic
        topology = ladon-testbed
        mode = single-jvm
        run { duration = 4s, wall-limit = 4m }
        traffic = [
          { name = mmh-to-ch1, from = mmh, to = "0x8_0010_0000", size = 64, interval = 2us, start = 640ms, count = 10000 }
        ]
        faults = [
          { kind = hold-heartbeats, target = mmh, for = 3s, at = 500ms }
        ]
        invariants = [
          { kind = takeover-completed, within = 40s }
          { kind = master-is, host = bmh }
          no-duplicates
          in-order
        ]
      }
      """;

  @TempDir Path dir;

  @Test
  void shouldRouteTheSameWritesByTheOldTableWhenTheBackupFencesTheMasterUnderTrafficTwice() throws Exception {
    Path file = Files.writeString(dir.resolve("fence-under-traffic.conf"), SCENARIO);
    List<String> first = null;
    Map<String, List<String>> firstJournals = null;
    for (int i = 1; i <= 2; i++) {
      Scenario s = ScenarioLoader.load(file, ScenarioRunnerTest.KINDS, ScenarioOptions.NONE);
      Path runDir = dir.resolve("run-" + i);
      Outcome o = new ScenarioRunner(ScenarioRunnerTest.KINDS).run(s, runDir, ScenarioRunnerTest.quiet());
      for (Checked c : o.invariants()) {
        assertTrue(c.verdict().pass(), "run " + i + ": " + c.spec().label() + ": " + c.verdict().detail());
      }
      assertEquals(0, ScenarioRunnerTest.figure(o, "sync.stragglers").value(), "run " + i + ": nothing behind a clock");
      double sent = ScenarioRunnerTest.figure(o, "traffic.mmh-to-ch1.sent").value();
      double delivered = ScenarioRunnerTest.figure(o, "sink.ch1.delivered").value();
      assertTrue(delivered > 0 && delivered < sent,
          "run " + i + ": the fencing falls inside the stream: " + delivered + " of " + sent + " delivered");
      List<String> outcome = DeterminismScenarioTest.modelOutcome(o);
      Map<String, List<String>> journals = TakeoverDeterminismTest.journals(runDir.resolve("data"));
      if (first == null) {
        first = outcome;
        firstJournals = journals;
        assertFalse(journals.isEmpty(), "the controllers' journals were read");
      } else {
        assertEquals(first, outcome, "model and count figures, invariants of run 2");
        assertEquals(firstJournals, journals, "journals of run 2");
      }
    }
  }
}
