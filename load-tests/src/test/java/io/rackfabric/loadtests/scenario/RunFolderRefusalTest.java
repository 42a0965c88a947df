package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.ScenarioFiles.assertContains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run's folder goes into the journal's H2 URL ({@code RUN_DIR/data/rack}), where a ';' starts
 * settings such as INIT (SQL run on connect). A scenario file named
 * {@code x;INIT=CREATE TABLE ...--.conf} without a {@code name} key used to name the folder so and
 * have {@code rack run} run the statement, its journal outside the folder. Both that name and a
 * {@code --run-dir} holding ';' are refused with exit 2 before anything is written or started.
 */
class RunFolderRefusalTest {

  private static final String SCENARIO = RackCall.JOURNALED_SCENARIO;

  @TempDir Path dir;

  private final RackCall call = new RackCall();

  @Test
  void shouldRefuseAScenarioFileNameThatWouldBeAnH2SettingWhenTheScenarioHasNoName() throws Exception {
    Path plain = Files.writeString(dir.resolve("plain.conf"), SCENARIO);
    assertEquals(0, call.run("run", plain.toString(), "--check"), call.err()); // the text itself is fine

    Path crafted = Files.writeString(dir.resolve("x;INIT=CREATE TABLE pwned(id INT)--.conf"), SCENARIO);
    assertEquals(2, call.run("run", crafted.toString()), call.err());
    assertEquals(crafted + ": name: missing, and the file name 'x;INIT=CREATE TABLE pwned(id INT)--' cannot"
        + " stand for it: a scenario's name must be letters, digits, '_', '-' or '.' (it names the run's"
        + " folder); add name = ... or rename the file\n", call.err());
    // The default run folder is target/rack-runs/<name>-<time>; the statement's database was
    // target/rack-runs/x.mv.db.
    Path runs = Path.of("target", "rack-runs");
    assertFalse(Files.exists(runs.resolve("x.mv.db")), "the statement ran");
    if (Files.isDirectory(runs)) {
      try (Stream<Path> list = Files.list(runs)) {
        assertEquals(List.of(), list.filter(p -> p.getFileName().toString().startsWith("x;")).toList());
      }
    }
  }

  @Test
  void shouldRefuseARunFolderThatWouldBeAnH2SettingBeforeWritingAnything() throws Exception {
    Path scenario = Files.writeString(dir.resolve("plain.conf"), SCENARIO);
    Path runDir = dir.resolve("r;INIT=CREATE TABLE pwned(id INT)--");
    assertEquals(2, call.run("run", scenario.toString(), "--run-dir", runDir.toString()), call.err());
    assertContains(call.err(), "rack run: run folder " + runDir + " refused: journal folder ");
    assertContains(call.err(), ": element \"r;INIT=CREATE TABLE pwned(id INT)--\" holds ';', which an H2 URL would"
        + " read as the start of a setting; give the run another folder with --run-dir\n");
    try (Stream<Path> list = Files.list(dir)) {
      assertEquals(List.of(scenario), list.toList(), "no run folder, no r.mv.db");
    }
  }
}
