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

  /** Longest run of one word of a message shown whole; user values longer than this are cut. */
  static final int MAX_WORD = 60;
  /** What ends a word: a value is quoted, or follows "=", so it is measured on its own. */
  private static final String WORD_BREAKS = " '\"=,()[]{}";
  /** Longest reason shown whole: a value with spaces in it is cut here. */
  static final int MAX_REASON = 1000;

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
      text.append(bounded(key, MAX_WORD)).append(": ");
    }
    text.append(bounded(reason, MAX_REASON));
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

  /**
   * What a message may show of a text that holds user values: every message of a file passes
   * here, so no caller can echo a 10MB name whole or put a control character on a user's terminal.
   * Non-printable characters are escaped ({@code \n}, {@code \u0007}), each word longer than
   * {@value #MAX_WORD} characters is cut to its start and its length, and so is the whole text
   * beyond {@code max}.
   */
  static String bounded(String text, int max) {
    StringBuilder out = new StringBuilder(Math.min(text.length(), max + 40));
    int word = 0;
    int wordStart = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (WORD_BREAKS.indexOf(c) >= 0) {
        word = 0;
        out.append(c);
      } else if (word == MAX_WORD) {
        int end = i;
        while (end < text.length() && WORD_BREAKS.indexOf(text.charAt(end)) < 0) {
          end++;
        }
        out.append("... (").append(end - wordStart).append(" chars)");
        word = 0;
        i = end - 1;
      } else {
        if (word == 0) {
          wordStart = i;
        }
        word++;
        appendPrintable(out, c);
      }
      if (out.length() > max) {
        out.setLength(max);
        out.append("... (").append(text.length()).append(" chars)");
        break;
      }
    }
    return out.toString();
  }

  private static void appendPrintable(StringBuilder out, char c) {
    switch (c) {
      case '\n' -> out.append("\\n");
      case '\r' -> out.append("\\r");
      case '\t' -> out.append("\\t");
      default -> {
        int type = Character.getType(c);
        if (Character.isISOControl(c) || type == Character.FORMAT || type == Character.UNASSIGNED
            || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR
            || type == Character.PRIVATE_USE) {
          out.append(String.format("\\u%04X", (int) c));
        } else {
          out.append(c);
        }
      }
    }
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
