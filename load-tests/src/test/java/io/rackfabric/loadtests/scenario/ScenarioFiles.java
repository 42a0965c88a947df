package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.scenario.language.ScenarioException;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Scenario files for the loader's error tests: a valid base file edited one line at a time,
 * written into a test's folder, and the problems the loader reports for it, named relative to
 * that folder.
 */
public final class ScenarioFiles {

  private final Path dir;
  private final List<String> base;

  public ScenarioFiles(Path dir, List<String> base) {
    this.dir = dir;
    this.base = List.copyOf(base);
  }

  /** The base file with line {@code line} (from 1) replaced. */
  public List<String> edit(int line, String replacement) {
    List<String> lines = new ArrayList<>(base);
    lines.set(line - 1, replacement);
    return lines;
  }

  public Path write(String name, List<String> lines) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, String.join("\n", lines) + "\n");
    return file;
  }

  /** What the loader reports for {@code lines} as bad.conf; it must refuse the file. */
  public String problems(List<String> lines) throws IOException {
    Path file = write("bad.conf", lines);
    ScenarioException e = assertThrows(ScenarioException.class,
        () -> ScenarioLoader.load(file, ScenarioKinds.standard(), ScenarioOptions.NONE));
    // messages name the files as the caller gave them; report relative to the folder
    return e.getMessage().replace(dir + "/", "");
  }

  /** What the loader reports for the base with line {@code line} (from 1) replaced; it must refuse it. */
  public String problems(int line, String replacement) throws IOException {
    return problems(edit(line, replacement));
  }

  public static void assertContains(String text, String part) {
    assertTrue(text.contains(part), "expected\n  " + part + "\nin\n  " + text.replace("\n", "\n  "));
  }
}
