package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigSyntax;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.RunResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run's result.json keeps its fault record: the build, the scenario, mode and seed, and each
 * applied fault with kind, target, parameters, how it was asked and the model time it entered the
 * model at.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class FaultRecordTest {

  @TempDir Path dir;

  static Map<String, Object> readJson(Path file) throws Exception {
    return ConfigFactory.parseString(Files.readString(file),
        ConfigParseOptions.defaults().setSyntax(ConfigSyntax.JSON)).root().unwrapped();
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Object o) {
    return (Map<String, Object>) o;
  }

  @Test
  void shouldRecordEachAppliedFaultWithItsModelTimeWhenADemoLinkGoesDown() throws Exception {
    Scenario s = ScenarioLoader.loadBundled("link-down-demo", ScenarioRunnerTest.KINDS, ScenarioOptions.NONE);
    Outcome o = new ScenarioRunner(ScenarioRunnerTest.KINDS).run(s, dir, ScenarioRunnerTest.quiet());
    RunFiles.write(dir, o, null);

    Map<String, Object> record = map(readJson(dir.resolve(RunFiles.RESULT)).get(FaultRecord.KEY));
    assertEquals(1, record.get("record_version"));
    assertEquals(FaultRecord.projectVersion(), record.get("rackfabric_version"));
    assertNotEquals("unknown", record.get("rackfabric_version"), "the build filled in the pom's version");
    assertEquals("link-down-demo", record.get("scenario"));
    assertEquals("single-jvm", record.get("mode"));
    assertEquals(1, record.get("seed"));
    assertEquals(true, record.get("reproducible"));
    assertNull(record.get("scenario_copy"), "the runner alone copies no scenario; rack run does");
    List<?> faults = (List<?>) record.get("faults");
    assertEquals(1, faults.size());
    Map<String, Object> f = map(faults.get(0));
    assertEquals("link-down", f.get("kind"));
    assertEquals("tor.ntb2", f.get("target"));
    assertEquals(Map.of(), f.get("params"));
    assertEquals(false, f.get("random"));
    Map<String, Object> asked = map(f.get("asked"));
    assertEquals("model", asked.get("clock"));
    assertEquals(50_000, asked.get("at_ns"));
    Map<String, Object> step = map(((List<?>) f.get("applied")).get(0));
    assertEquals(1, step.get("step"));
    assertEquals(50_000, step.get("model_ns"));
    assertEquals("stamped", step.get("model_from"));
  }

  @Test
  void shouldRecordTheRacksModelTimeForAWallTimeFaultAndShowItInTheReport() throws Exception {
    Path file = dir.resolve("wall.conf");
    Files.writeString(file, String.join("\n",
        "scenario {",
        "  topology = demo",
        "  run { duration = 100us, reproducible = false }",
        "  traffic = [ { name = a, from = mh, to = mem, interval = 200ns } ]",
        "  faults = [ { kind = link-flap, target = tor.ntb2, at = \"wall 100ms\", period = 40ms } ]",
        "}"));
    Scenario s = ScenarioLoader.load(file, ScenarioRunnerTest.KINDS, ScenarioOptions.NONE);
    Path run = dir.resolve("run");
    Outcome o = new ScenarioRunner(ScenarioRunnerTest.KINDS).run(s, run, ScenarioRunnerTest.quiet());
    RunFiles.write(run, o, null);

    RunResult.AppliedFault applied = o.result().faults().get(0);
    assertEquals(-1, applied.modelAt(), "a wall-time step is stamped with no model time");
    assertTrue(applied.rackModelNs() >= 0, "the rack told its clock");
    Map<String, Object> f = map(((List<?>) map(readJson(run.resolve(RunFiles.RESULT)).get(FaultRecord.KEY))
        .get("faults")).get(0));
    assertEquals("wall", map(f.get("asked")).get("clock"));
    assertEquals(Map.of("period", 40_000_000, "count", 1), map(f.get("params")));
    Map<String, Object> step = map(((List<?>) f.get("applied")).get(0));
    assertEquals(applied.rackModelNs(), ((Number) step.get("model_ns")).longValue());
    assertEquals("rack-clock", step.get("model_from"));
    String report = Files.readString(run.resolve("report.html"));
    assertTrue(report.contains("(rack&#39;s clock)"), "the report's fault list shows the model time");
  }
}
