package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The Device Lending latency scenarios and their device-lending figures. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class LendingScenarioTest {

  @TempDir Path dir;

  @Test
  void shouldMeasurePositiveIdenticalLatenciesWhenTheBackToBackScenarioRunsTwice() throws Exception {
    Outcome first = run("lending-ram-latency-b2b", 0);
    Outcome second = run("lending-ram-latency-b2b", 1);

    Map<String, Double> figures = lending(first);
    assertEquals(4, figures.size(), figures.toString());
    figures.forEach((name, value) -> assertTrue(value > 0, name + "=" + value));
    assertTrue(first.passed(), DeterminismScenarioTest.modelOutcome(first).toString());
    assertEquals(DeterminismScenarioTest.modelOutcome(first), DeterminismScenarioTest.modelOutcome(second));
  }

  @Test
  void shouldTakeLongerOneWayThanTheNtbShareWhenTheThreeWayScenarioRuns() throws Exception {
    Outcome o = run("lending-ram-latency-3way", 0);

    Map<String, Double> figures = lending(o);
    assertTrue(o.passed(), DeterminismScenarioTest.modelOutcome(o).toString());
    double ntb = figures.get("lending.ntb_crossing_ns");
    assertTrue(ntb > 0, figures.toString());
    assertTrue(figures.get("lending.ram_to_ram_one_way_ns") > ntb, figures.toString());
  }

  private Outcome run(String scenario, int i) throws Exception {
    Scenario s = ScenarioLoader.loadBundled(scenario, ScenarioRunnerTest.KINDS, ScenarioOptions.NONE);
    return new ScenarioRunner(ScenarioRunnerTest.KINDS).run(s, dir.resolve(scenario + i), ScenarioRunnerTest.quiet());
  }

  private static Map<String, Double> lending(Outcome o) {
    Map<String, Double> out = new TreeMap<>();
    for (Figure f : o.figures()) {
      if (f.name().startsWith("lending.")) {
        assertEquals("model", f.clock(), f.name());
        out.put(f.name(), f.value());
      }
    }
    return out;
  }
}
