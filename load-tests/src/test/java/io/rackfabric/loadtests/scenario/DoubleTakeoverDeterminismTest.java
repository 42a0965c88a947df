package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.ScenarioRunnerTest.figure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.scenario.ScenarioRunner.Checked;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.TakeoverDeterminismTest.Repeatable;
import io.rackfabric.loadtests.scenario.language.Mode;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code mmh-double-takeover-model-time} on five node JVMs under the model-time kernel, twice: the
 * MMH's JVM killed at a model time, its node started again at a model time (the keeper takes its
 * endpoint back in) and rejoined as backup, the BMH's JVM killed at a model time. Every model and
 * count figure, every invariant's verdict and detail and every journal's stored events are the
 * same on both runs, and no tenure of the MMH diverges from the BMH's journal.
 */
@Tag("multi-jvm")
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class DoubleTakeoverDeterminismTest {

  @Test
  void shouldRepeatEveryFigureVerdictAndJournalWhenARestartedMasterTakesOverAgainAtModelTimes() throws Exception {
    Scenario s = ScenarioLoader.loadBundled("mmh-double-takeover-model-time", TakeoverDeterminismTest.KINDS,
        ScenarioOptions.NONE);
    assertEquals(Mode.MULTI_JVM, s.mode());
    assertTrue(s.reproducible() && s.reproducibilityProblems().isEmpty(), "model-time faults only");
    Path base = Path.of("target", "multi-jvm", "double-takeover-determinism-" + System.currentTimeMillis());

    List<Repeatable> runs = new ArrayList<>();
    for (int i = 1; i <= 2; i++) {
      Path runDir = base.resolve("run-" + i);
      Outcome o = new ScenarioRunner(TakeoverDeterminismTest.KINDS).run(s, runDir, System.out);
      for (Checked c : o.invariants()) {
        assertTrue(c.verdict().pass(), "run " + i + ": " + c.spec().label() + ": " + c.verdict().detail());
      }
      String restart = o.result().faults().get(1).note();
      assertTrue(restart.contains("back in the model-time kernel from 40000000000 ns; mmh is BACKUP"), restart);
      assertEquals(0, figure(o, "sync.stragglers").value(), "nothing reached a component behind its clock");
      DoubleTakeoverScenarioTest.assertNoTenureDiverged(runDir);
      runs.add(new Repeatable(TakeoverDeterminismTest.modelAndCount(o), o.invariants().stream()
          .map(c -> c.spec().label() + ": " + c.verdict().pass() + " " + c.verdict().detail()).toList(),
          TakeoverDeterminismTest.journals(runDir.resolve("data"))));
    }

    Repeatable first = runs.get(0);
    Repeatable second = runs.get(1);
    assertFalse(first.journals().isEmpty(), "the hosts' journals were read");
    assertEquals(first.figures(), second.figures(), "model and count figures of run 2");
    assertEquals(first.verdicts(), second.verdicts(), "invariants of run 2");
    assertEquals(first.journals(), second.journals(), "journals of run 2");
  }
}
