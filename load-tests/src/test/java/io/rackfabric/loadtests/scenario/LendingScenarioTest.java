package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.figure.DeviceLendingFigures;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
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
    assertEquals(Set.of("lending.ram_to_ram_one_way_ns", "lending.ntb_crossing_ns"),
        new DeviceLendingFigures().paperValues(first.result()).keySet(), "the paper's values, to print beside");
  }

  @Test
  void shouldGiveNoLendingFiguresWhenTwoGeneratorsShareASink() throws Exception {
    Path file = dir.resolve("shared.conf");
    Files.writeString(file, String.join("\n",
        "scenario {",
        "  topology = lending-b2b",
        "  traffic = [",
        "    { name = ram-to-ram, from = borrower, to = \"0x10_0000_0000\", interval = 1us, count = 5 }",
        "    { name = across-ntb, from = gpu, to = \"0xC_0000_0000\", interval = 1us, count = 5 }",
        "    { name = beside-ntb, from = lender, to = \"0xC_0001_0000\", interval = 1us, count = 5 }",
        "  ]",
        "  figures = [ traffic, device-lending ]",
        "}"));
    Scenario s = ScenarioLoader.load(file, ScenarioRunnerTest.KINDS, ScenarioOptions.NONE);
    Outcome o = new ScenarioRunner(ScenarioRunnerTest.KINDS).run(s, dir.resolve("shared"), ScenarioRunnerTest.quiet());

    assertTrue(o.figures().stream().anyMatch(f -> f.name().equals("sink.borrower.delivered")), "the run ran");
    assertEquals(Map.of(), lending(o), "both write into the borrower: the difference would mix two paths");
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
