package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.FaultRecordTest.map;
import static io.rackfabric.loadtests.scenario.FaultRecordTest.readJson;
import static io.rackfabric.loadtests.scenario.ScenarioFiles.assertContains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rack run --replay RUN_DIR}: a run's folder alone runs it again, with the recorded faults
 * at their recorded model times, and gives the same model-time and count figures; a folder that
 * cannot be replayed is refused with the reason and exit 2.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ReplayCommandTest {

  @TempDir Path dir;

  private final RackCall call = new RackCall();

  /** Figures on the model clock and counts, by name. */
  static Map<String, Object> modelAndCountFigures(Map<String, Object> result) {
    Map<String, Object> out = new TreeMap<>();
    for (Object o : (List<?>) result.get("figures")) {
      Map<String, Object> f = map(o);
      if (f.get("clock").equals("model") || f.get("clock").equals("count")) {
        out.put((String) f.get("name"), f.get("value"));
      }
    }
    return out;
  }

  private static List<Map<String, Object>> recordedSteps(Map<String, Object> result) {
    List<Map<String, Object>> steps = new ArrayList<>();
    for (Object f : (List<?>) map(result.get(FaultRecord.KEY)).get("faults")) {
      for (Object s : (List<?>) map(f).get("applied")) {
        steps.add(map(s));
      }
    }
    return steps;
  }

  @Test
  void shouldGiveTheSameModelTimeAndCountFiguresWhenALinkDownDemoRunIsReplayed() throws Exception {
    Path first = dir.resolve("first");
    Path again = dir.resolve("again");
    assertEquals(0, call.run("run", "link-down-demo", "--run-dir", first.toString()), call.err());
    assertTrue(Files.isRegularFile(first.resolve(FaultRecord.SCENARIO_COPY)), "the scenario's copy is in the folder");

    assertEquals(0, call.run("run", "--replay", first.toString(), "--run-dir", again.toString()), call.err());
    assertContains(call.out(), "replay: every model-time and count figure as recorded");

    Map<String, Object> recorded = readJson(first.resolve(RunFiles.RESULT));
    Map<String, Object> replayed = readJson(again.resolve(RunFiles.RESULT));
    Map<String, Object> figures = modelAndCountFigures(recorded);
    assertTrue(figures.containsKey("sink.ch2.delivered") && figures.containsKey("fault1.link-down.tor.ntb2.at"),
        figures.toString());
    assertEquals(figures, modelAndCountFigures(replayed));
    assertEquals(recordedSteps(recorded).get(0).get("model_ns"), recordedSteps(replayed).get(0).get("model_ns"));
    Map<String, Object> record = map(replayed.get(FaultRecord.KEY));
    assertEquals(first.toAbsolutePath().normalize().toString(), record.get("replay_of"));
    assertEquals(FaultRecord.SCENARIO_COPY, record.get("scenario_copy"));
    assertEquals(Files.readString(first.resolve(FaultRecord.SCENARIO_COPY)),
        Files.readString(again.resolve(FaultRecord.SCENARIO_COPY)), "the replay's folder replays too");
  }

  @Test
  void shouldApplyAWallTimeFaultAtTheModelTimeItWasRecordedAtWhenReplayed() throws Exception {
    Path topology = dir.resolve("topo").resolve("rack.conf");
    Files.createDirectories(topology.getParent());
    Files.writeString(topology, new String(getClass().getClassLoader().getResourceAsStream("topologies/demo.conf")
        .readAllBytes(), StandardCharsets.UTF_8));
    Path scenario = dir.resolve("wall.conf");
    Files.writeString(scenario, String.join("\n",
        "scenario {",
        "  topology = topo/rack.conf",
        "  run { duration = 100us, reproducible = false }",
        "  traffic = [ { name = a, from = mh, to = mem, interval = 200ns } ]",
        "  faults = [ { kind = link-flap, target = tor.ntb2, at = \"wall 100ms\", period = 40ms } ]",
        "}"));
    Path first = dir.resolve("first");
    Path again = dir.resolve("again");
    assertEquals(0, call.run("run", scenario.toString(), "--run-dir", first.toString()), call.err());
    assertTrue(Files.isRegularFile(first.resolve(FaultRecord.TOPOLOGY_COPY)), "the topology file's copy");
    Files.delete(topology); // the folder alone replays the run

    assertEquals(0, call.run("run", "--replay", first.toString(), "--run-dir", again.toString()), call.err());

    List<Map<String, Object>> recorded = recordedSteps(readJson(first.resolve(RunFiles.RESULT)));
    Map<String, Object> replayed = map(((List<?>) map(readJson(again.resolve(RunFiles.RESULT)).get(FaultRecord.KEY))
        .get("faults")).get(0));
    assertEquals("model", map(replayed.get("asked")).get("clock"), "a wall-time fault becomes a model-time one");
    List<?> steps = (List<?>) replayed.get("applied");
    assertEquals(2, steps.size());
    for (int i = 0; i < 2; i++) {
      assertEquals("rack-clock", recorded.get(i).get("model_from"));
      assertEquals(recorded.get(i).get("model_ns"), map(steps.get(i)).get("model_ns"), "step " + (i + 1));
      assertEquals("stamped", map(steps.get(i)).get("model_from"));
    }
  }

  @Test
  void shouldRefuseAPathThatIsNotADirectory() throws Exception {
    Path file = Files.writeString(dir.resolve("result.json"), "{}");
    assertEquals(2, call.run("run", "--replay", file.toString()));
    assertContains(call.err(), "refused: not a directory");
    assertEquals(2, call.run("run", "--replay", dir.resolve("nowhere; rm -rf x\n").toString()));
    assertContains(call.err(), "nowhere; rm -rf x\\u000a: refused: not a directory");
  }

  @Test
  void shouldRefuseAFolderWithoutResultJson() throws Exception {
    assertEquals(2, call.run("run", "--replay", dir.toString()));
    assertContains(call.err(), "rack run: --replay " + dir + ": refused: no result.json in it");
  }

  @Test
  void shouldRefuseAResultWithoutAFaultRecord() throws Exception {
    Files.writeString(dir.resolve(RunFiles.RESULT), "{ \"scenario\": \"old\", \"faults_applied\": [] }");
    assertEquals(2, call.run("run", "--replay", dir.toString()));
    assertContains(call.err(), "refused: result.json has no fault record (\"fault_record\")");
  }

  @Test
  void shouldRefuseAResultThatIsNotJson() throws Exception {
    Files.writeString(dir.resolve(RunFiles.RESULT), "not json at all {");
    assertEquals(2, call.run("run", "--replay", dir.toString()));
    assertContains(call.err(), "refused: result.json is not readable JSON");
  }

  @Test
  void shouldRefuseARecordOfAnotherFormat() throws Exception {
    Files.writeString(dir.resolve(RunFiles.RESULT), "{ \"fault_record\": { \"record_version\": 2, \"rackfabric_version\": \""
        + FaultRecord.projectVersion() + "\" } }");
    assertEquals(2, call.run("run", "--replay", dir.toString()));
    assertContains(call.err(), "refused: its fault record is of record_version 2, and this build replays 1 only");
  }

  @Test
  void shouldRefuseARecordOfAnotherBuild() throws Exception {
    Files.writeString(dir.resolve(RunFiles.RESULT),
        "{ \"fault_record\": { \"record_version\": 1, \"rackfabric_version\": \"0.0.1-elsewhere\" } }");
    assertEquals(2, call.run("run", "--replay", dir.toString()));
    assertContains(call.err(), "refused: recorded by rackfabric 0.0.1-elsewhere, and this is rackfabric "
        + FaultRecord.projectVersion());
  }

  @Test
  void shouldRefuseARecordWhoseScenarioCopyIsMissing() throws Exception {
    Files.writeString(dir.resolve(RunFiles.RESULT), "{ \"fault_record\": { \"record_version\": 1, \"rackfabric_version\": \""
        + FaultRecord.projectVersion() + "\", \"scenario_copy\": \"../../etc/passwd\" } }");
    assertEquals(2, call.run("run", "--replay", dir.toString()));
    assertContains(call.err(), "refused: no copy of the scenario (scenario.conf) beside its result.json");
  }

  @Test
  void shouldRefuseASeedOrModeGivenWithReplay() throws Exception {
    assertEquals(2, call.run("run", "--replay", dir.toString(), "--seed", "3"));
    assertContains(call.err(), "--replay takes the mode, seed, transport, settings and faults from the record; drop"
        + " --seed");
    assertFalse(call.err().contains("Exception"), call.err());
    assertEquals(2, call.run("run", "--replay", dir.toString(), "--set", "rackfabric.fabric.max-payload=512"));
    assertContains(call.err(), "drop --set");
  }
}
