package io.rackfabric.cluster.topology;

import com.typesafe.config.ConfigOrigin;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The problems found in one topology file, each rendered {@code file:line: key: reason}. They are
 * collected rather than thrown so that a user fixes a file in one pass, not one error per run.
 */
public final class Problems {

  private record Problem(String file, int line, int order, String text) {}

  private final String display;
  private final Path mainFile;
  private final List<Problem> problems = new ArrayList<>();

  /**
   * @param display how the file is named in messages (the path as the user gave it, or
   *     {@code fig1.conf} for a bundled topology)
   * @param mainFile the file itself when loaded from disk, to tell it from included files
   */
  public Problems(String display, Path mainFile) {
    this.display = display;
    this.mainFile = mainFile;
  }

  public String display() {
    return display;
  }

  /** An empty list for other findings about the same file, named and lined the same way. */
  public Problems sibling() {
    return new Problems(display, mainFile);
  }

  public void add(ConfigOrigin origin, String key, String reason) {
    add(fileOf(origin), origin == null ? -1 : origin.lineNumber(), key, reason);
  }

  public void add(String file, int line, String key, String reason) {
    StringBuilder text = new StringBuilder(file);
    if (line > 0) {
      text.append(':').append(line);
    }
    text.append(": ");
    if (key != null && !key.isEmpty()) {
      text.append(key).append(": ");
    }
    text.append(reason);
    problems.add(new Problem(file, line, problems.size(), text.toString()));
  }

  public boolean isEmpty() {
    return problems.isEmpty();
  }

  public int size() {
    return problems.size();
  }

  /** In file order, so that the list reads top to bottom like the file. */
  public List<String> sorted() {
    return problems.stream()
        .sorted(Comparator.comparingInt((Problem p) -> p.file().equals(display) ? 0 : 1)
            .thenComparing(Problem::file)
            .thenComparingInt(Problem::line)
            .thenComparingInt(Problem::order))
        .map(Problem::text)
        .toList();
  }

  /** Values that came from an included file are reported against that file. */
  private String fileOf(ConfigOrigin origin) {
    if (origin == null) {
      return display;
    }
    if (origin.filename() != null && mainFile != null) {
      try {
        if (!Path.of(origin.filename()).toAbsolutePath().normalize()
            .equals(mainFile.toAbsolutePath().normalize())) {
          return origin.filename();
        }
      } catch (RuntimeException e) {
        return origin.filename();
      }
    }
    return display;
  }
}
