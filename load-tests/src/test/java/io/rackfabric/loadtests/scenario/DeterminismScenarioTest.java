package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Same scenario, same seed, same figures: every model-time and count figure and every invariant's
 * detail of three runs are identical, whatever the machine was doing meanwhile.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DeterminismScenarioTest {

  @TempDir Path dir;

  /** The model and count figures, and each invariant's verdict and detail, of one run. */
  static List<String> modelOutcome(Outcome o) {
    TreeMap<String, String> lines = new TreeMap<>();
    for (Figure f : o.figures()) {
      if (f.clock().equals("model") || f.clock().equals("count")) {
        lines.put(f.name(), f.clock() + " " + Figure.text(f.value()));
      }
    }
    List<String> out = new ArrayList<>();
    lines.forEach((k, v) -> out.add(k + " = " + v));
    o.invariants().forEach(c -> out.add(c.spec().kind() + ": " + c.verdict().pass() + " " + c.verdict().detail()));
    return out;
  }

  List<List<String>> threeRuns(String scenario) throws Exception {
    List<List<String>> runs = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Scenario s = ScenarioLoader.loadBundled(scenario, ScenarioRunnerTest.KINDS, ScenarioOptions.NONE);
      runs.add(modelOutcome(new ScenarioRunner(ScenarioRunnerTest.KINDS).run(s, dir.resolve(scenario + i),
          ScenarioRunnerTest.quiet())));
    }
    return runs;
  }

  @Test
  void shouldGiveIdenticalModelFiguresWhenTwoFlowsContendThreeTimes() throws Exception {
    List<List<String>> runs = threeRuns("contend");
    assertTrue(runs.get(0).contains("sync.stragglers = count 0"), runs.get(0).toString());
    assertTrue(runs.get(0).stream().anyMatch(l -> l.startsWith("sink.mem.latency_max")), runs.get(0).toString());
    assertEquals(runs.get(0), runs.get(1));
    assertEquals(runs.get(0), runs.get(2));
  }

  @Test
  void shouldGiveIdenticalModelFiguresWhenALinkGoesDownUnderTrafficThreeTimes() throws Exception {
    List<List<String>> runs = threeRuns("link-down-demo");
    assertEquals(runs.get(0), runs.get(1));
    assertEquals(runs.get(0), runs.get(2));
  }
}
