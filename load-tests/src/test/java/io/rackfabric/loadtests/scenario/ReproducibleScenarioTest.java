package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.ScenarioFiles.assertContains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.cli.Rack;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run.reproducible}: a run asked to be reproducible (the default) and given a wall-time
 * fault is refused by {@code rack run --check}, naming the fault and its line; one that says
 * {@code reproducible = false} is not. Nothing is started.
 */
class ReproducibleScenarioTest {

  private static final List<String> BASE = List.of(
      "scenario {",                                                                              // 1
      "  name = r",                                                                              // 2
      "  topology = demo",                                                                       // 3
      "  run { duration = 100us, wall-limit = 1m }",                                             // 4
      "  traffic = [ { name = a, from = ch1, to = ch2, interval = 100ns } ]",                    // 5
      "  faults = [",                                                                            // 6
      "    { kind = link-down, target = tor.ntb2, at = 50us }",                                  // 7
      "    { kind = link-flap, target = ch1, at = \"wall 1s\", period = 200ms, count = 2 }",     // 8
      "  ]",                                                                                     // 9
      "}");                                                                                      // 10

  @TempDir Path dir;

  private ScenarioFiles files() {
    return new ScenarioFiles(dir, BASE);
  }

  private Scenario load(List<String> lines) throws Exception {
    return ScenarioLoader.load(files().write("r.conf", lines), ScenarioKinds.standard(), ScenarioOptions.NONE);
  }

  private static String relative(List<String> problems, Path dir) {
    return String.join("\n", problems).replace(dir + "/", "");
  }

  @Test
  void shouldBeReproducibleByDefaultAndNameEachWallTimeFaultWithItsLine() throws Exception {
    Scenario s = load(BASE);
    assertTrue(s.reproducible());
    assertEquals(List.of("r.conf:8: scenario.faults[1].at: link-flap ch1 at wall 1s: a wall-time fault makes the run"
        + " irreproducible; give it a model time (at = \"1s\") or set run.reproducible = false"),
        List.of(relative(s.reproducibilityProblems(), dir)));
  }

  @Test
  void shouldListNoProblemWhenTheRunIsNotAskedToBeReproducible() throws Exception {
    Scenario s = load(files().edit(4, "  run { duration = 100us, wall-limit = 1m, reproducible = false }"));
    assertFalse(s.reproducible());
    assertEquals(List.of(), s.reproducibilityProblems());
    assertEquals(1, s.wallTimeFaults().size(), "the wall-time fault is still known");
  }

  @Test
  void shouldListNoProblemWhenEveryFaultIsOnModelTime() throws Exception {
    Scenario s = load(files().edit(8, "    { kind = link-flap, target = ch1, at = 60us, period = 5us, count = 2 }"));
    assertTrue(s.reproducible());
    assertEquals(List.of(), s.reproducibilityProblems());
  }

  @Test
  void shouldRejectAReproducibleValueThatIsNotABoolean() throws Exception {
    String m = files().problems(files().edit(4, "  run { duration = 100us, reproducible = sometimes }"));
    assertContains(m, "bad.conf:4: scenario.run.reproducible: expected true or false, got");
  }

  @Test
  void shouldSayAKindTakesOnlyWallTimesWhenItsOwnCheckRefusesAModelTime() throws Exception {
    List<String> lines = files().edit(8, "    { kind = degrade, target = node-c, delay = 5ms, at = \"wall 1s\", for = 500ms }");
    lines.set(2, "  topology = demo, mode = multi-jvm, multi-jvm { network = namespaces }");
    lines.set(6, "");
    Scenario s = load(lines);
    assertContains(relative(s.reproducibilityProblems(), dir), "r.conf:8: scenario.faults[0].at: degrade node-c at"
        + " wall 1s: a wall-time fault makes the run irreproducible; degrade takes only wall times for now, so set"
        + " run.reproducible = false");
  }

  @Test
  void shouldAdviseAModelTimeWhenAJvmPauseIsAskedAtAWallTime() throws Exception {
    List<String> lines = files().edit(8, "    { kind = pause-node, target = node-c, at = \"wall 1s\", for = 500ms }");
    lines.set(2, "  topology = demo, mode = multi-jvm");
    lines.set(6, "");
    Scenario s = load(lines);
    assertContains(relative(s.reproducibilityProblems(), dir), "r.conf:8: scenario.faults[0].at: pause-node node-c at"
        + " wall 1s: a wall-time fault makes the run irreproducible; give it a model time (at = \"1s\") or set"
        + " run.reproducible = false");
  }

  @Test
  void shouldNameARandomScheduleDrawnOnWallTime() throws Exception {
    List<String> lines = files().edit(8, "  ]");
    lines.set(8, "  random-faults { rates { link-down = 1 }, per = 1s, from = \"wall 0s\", until = \"wall 2s\","
        + " targets { link-down = [tor.ntb2] } }");
    lines.set(6, "");
    Scenario s = load(lines);
    assertContains(relative(s.reproducibilityProblems(), dir), "r.conf:9: scenario.random-faults: random-faults draws"
        + " its faults on wall time: a wall-time fault makes the run irreproducible; give from and until model times"
        + " or set run.reproducible = false");
  }

  @Test
  void shouldExitTwoAtCheckNamingTheFaultWhenAReproducibleRunHasAWallTimeFault() throws Exception {
    Path file = files().write("r.conf", BASE);
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Rack.run(List.of("run", file.toString(), "--check"), ScenarioRunnerTest.quiet(),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(2, status);
    assertTrue(err.toString(StandardCharsets.UTF_8).startsWith(file + ":8: scenario.faults[1].at: link-flap ch1 at wall"
        + " 1s: a wall-time fault makes the run irreproducible"), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void shouldPassCheckWhenTheRunSaysItIsNotReproducible() throws Exception {
    Path file = files().write("r.conf", files().edit(4, "  run { duration = 100us, reproducible = false }"));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int status = Rack.run(List.of("run", file.toString(), "--check"),
        new PrintStream(out, true, StandardCharsets.UTF_8), ScenarioRunnerTest.quiet());
    assertEquals(0, status, out.toString(StandardCharsets.UTF_8));
  }

  @Test
  void shouldPassCheckForEveryBundledScenario() throws Exception {
    for (String name : ScenarioLoader.BUNDLED) {
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int status = Rack.run(List.of("run", name, "--check"), ScenarioRunnerTest.quiet(),
          new PrintStream(err, true, StandardCharsets.UTF_8));
      assertEquals(0, status, name + ": " + err.toString(StandardCharsets.UTF_8));
    }
  }
}
