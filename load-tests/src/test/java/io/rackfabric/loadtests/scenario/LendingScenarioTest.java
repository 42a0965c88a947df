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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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

  // Two runs apart by one setting: what moves with it says which chips a path holds. These hold
  // whether a chip crossed through an NTB port costs switch-latency plus ntb-latency or ntb-latency
  // alone, so they do not depend on which of the two the fabric does.

  @ParameterizedTest
  @ValueSource(strings = {"lending-ram-latency-b2b", "lending-ram-latency-3way"})
  void shouldMoveTheCrossingAndTheOneWayByTheNtbLatencyWhenOnlyItChanges(String scenario) throws Exception {
    Map<String, Double> moved = moved(scenario, "ntb-latency", "300ns", "400ns");

    assertEquals(100, moved.get("lending.ntb_crossing_ns"), "one NTB in the crossing: " + moved);
    assertEquals(100, moved.get("lending.ram_to_ram_one_way_ns"), "one NTB on the way: " + moved);
    assertEquals(0, moved.get("lending.beside_ntb_ns"), "none beside it: " + moved);
  }

  @ParameterizedTest
  @ValueSource(strings = {"lending-ram-latency-b2b", "lending-ram-latency-3way"})
  void shouldHoldNoTransparentAdapterChipWhenOnlyTheSwitchLatencyChanges(String scenario) throws Exception {
    Map<String, Double> moved = moved(scenario, "switch-latency", "100ns", "200ns");

    assertEquals(100, moved.get("lending.beside_ntb_ns"), "one switch beside the NTB: " + moved);
    double crossing = moved.get("lending.ntb_crossing_ns");
    // 100 while the NTB chip costs a switch-latency too, 0 once ntb-latency is its whole cost; a
    // transparent adapter chip at the cable's other end would add 100 more
    assertTrue(crossing == 0 || crossing == 100, "at most the NTB chip's switch-latency: " + moved);
    assertEquals(100, moved.get("lending.ram_to_ram_one_way_ns") - crossing,
        "the lender's switch is the one chip of the one-way path besides the crossing: " + moved);
  }

  private Outcome run(String scenario, int i) throws Exception {
    return run(scenario, ScenarioOptions.NONE, scenario + i);
  }

  /** How much each lending figure moves (high minus low) between two runs apart by one rackfabric.fabric setting. */
  private Map<String, Double> moved(String scenario, String fabricKey, String low, String high) throws Exception {
    Map<String, Double> from = lending(run(scenario, fabricKey, low));
    Map<String, Double> to = lending(run(scenario, fabricKey, high));
    Map<String, Double> moved = new TreeMap<>();
    from.forEach((figure, value) -> moved.put(figure, to.get(figure) - value));
    return moved;
  }

  /** A run with one rackfabric.fabric setting; asserts it passed. */
  private Outcome run(String scenario, String fabricKey, String value) throws Exception {
    ScenarioOptions options = new ScenarioOptions(null, null, null, Map.of(), null,
        Map.of("rackfabric.fabric." + fabricKey, value));
    Outcome o = run(scenario, options, scenario + "-" + fabricKey + "-" + value);
    assertTrue(o.passed(), DeterminismScenarioTest.modelOutcome(o).toString());
    return o;
  }

  private Outcome run(String scenario, ScenarioOptions options, String runDir) throws Exception {
    Scenario s = ScenarioLoader.loadBundled(scenario, ScenarioRunnerTest.KINDS, options);
    return new ScenarioRunner(ScenarioRunnerTest.KINDS).run(s, dir.resolve(runDir), ScenarioRunnerTest.quiet());
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
