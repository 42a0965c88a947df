package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.ScenarioFiles.assertContains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code --run-dir} that already holds a journal ({@code data/*.mv.db}) from an earlier run used
 * to be reopened, and the run failed later with "REJECTED host=mmh is already known". It is
 * refused up front (exit 2, nothing written) unless {@code --reuse-run-dir} asks to delete that
 * journal, and only that, first.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class RunFolderReuseTest {

  private static final String SCENARIO = RackCall.JOURNALED_SCENARIO;

  @TempDir Path dir;

  private final RackCall call = new RackCall();

  @Test
  void shouldRefuseWithoutWritingAnythingWhenTheRunFolderHoldsAJournal() throws Exception {
    Path scenario = Files.writeString(dir.resolve("plain.conf"), SCENARIO);
    Path runDir = dir.resolve("run");
    Files.createDirectories(runDir.resolve("data"));
    Files.writeString(runDir.resolve("data").resolve("rack.mv.db"), "an earlier run's journal");
    Map<Path, String> before = contents(dir);

    assertEquals(2, call.run("run", scenario.toString(), "--run-dir", runDir.toString()), call.err());
    assertEquals("rack run: run folder " + runDir + " already holds a journal from an earlier run ("
        + Path.of("data", "rack.mv.db") + "), which the run would reopen; choose another --run-dir, or pass"
        + " --reuse-run-dir to delete its data/*.mv.db and start from an empty journal\n", call.err());
    assertEquals(before, contents(dir), "nothing written, nothing deleted");
  }

  @Test
  void shouldDeleteOnlyTheJournalAndRunWhenAskedToReuseTheRunFolder() throws Exception {
    Path scenario = Files.writeString(dir.resolve("plain.conf"), SCENARIO);
    Path runDir = dir.resolve("run");
    assertEquals(0, call.run("run", scenario.toString(), "--run-dir", runDir.toString()), call.err());
    try (Stream<Path> journal = Files.list(runDir.resolve("data"))) {
      assertTrue(journal.anyMatch(p -> p.getFileName().toString().endsWith(".mv.db")), "the first run kept a journal");
    }
    Files.writeString(runDir.resolve("data").resolve("notes.txt"), "mine");
    Files.writeString(runDir.resolve("keep.mv.db"), "not in data/");

    assertEquals(0, call.run("run", scenario.toString(), "--run-dir", runDir.toString(), "--reuse-run-dir"),
        call.err());
    assertContains(call.err(), "rack run: --reuse-run-dir: deleted the journal of " + runDir + " ("
        + Path.of("data", "rack.mv.db") + ")\n");
    assertFalse(call.err().contains("already known"), call.err());
    assertEquals("mine", Files.readString(runDir.resolve("data").resolve("notes.txt")));
    assertEquals("not in data/", Files.readString(runDir.resolve("keep.mv.db")));
  }

  @Test
  void shouldRefuseReuseWhenThereIsNoRunFolderToReuse() throws Exception {
    Path scenario = Files.writeString(dir.resolve("plain.conf"), SCENARIO);
    assertEquals(2, call.run("run", scenario.toString(), "--reuse-run-dir"), call.err());
    assertEquals("rack run: --reuse-run-dir needs --run-dir DIR (the folder whose journal to delete)\n", call.err());
  }

  private static Map<Path, String> contents(Path root) throws Exception {
    Map<Path, String> files = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.toList()) {
        files.put(root.relativize(p), Files.isDirectory(p) ? "/" : Files.readString(p));
      }
    }
    return files;
  }
}
