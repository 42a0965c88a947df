package io.rackfabric.cluster.topology;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigSyntax;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What the topology and scenario loaders share before they look at a key: reading a file (from
 * disk or the class path), parsing it as HOCON with its name as the origin, and resolving
 * substitutions. A file that cannot be read or parsed ends in {@link Unusable}, whose problems
 * read {@code file:line: syntax: reason} like every other problem of a file.
 */
public final class HoconFile {

  /**
   * How deep objects, lists and dotted key paths may nest. Typesafe Config parses and resolves
   * recursively, so a file nested some thousands deep ends its thread in a StackOverflowError;
   * no topology or scenario needs a tenth of this.
   */
  public static final int MAX_DEPTH = 64;

  /**
   * A parsed and resolved file with the {@link Problems} its checks report to.
   *
   * @param config the whole file, substitutions resolved
   */
  public record Parsed(Config config, Problems problems) {}

  /** Why a file could not be parsed at all; each loader turns it into its own exception. */
  public static final class Unusable extends Exception {

    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    Unusable(List<String> problems) {
      super(String.join(System.lineSeparator(), problems));
      this.problems = List.copyOf(problems);
    }

    Unusable(String problem) {
      this(List.of(problem));
    }

    public List<String> problems() {
      return problems;
    }
  }

  private HoconFile() {}

  /**
   * A file on disk; the path as given names it in messages.
   *
   * @param kind what the file should be, for messages: {@code "topology"}, {@code "scenario"}
   */
  public static Parsed load(Path file, String kind) throws Unusable {
    String display = file.toString();
    if (!Files.exists(file)) {
      throw new Unusable(display + ": file not found");
    }
    if (Files.isDirectory(file)) {
      throw new Unusable(display + ": is a directory, not a " + kind + " file");
    }
    if (!Files.isReadable(file)) {
      throw new Unusable(display + ": cannot read the file (permission denied)");
    }
    Problems problems = new Problems(display, file);
    try {
      refuseDeepNesting(Files.readString(file), problems);
    } catch (IOException e) {
      // Typesafe Config reads the file again below and says what is wrong with it.
    }
    try {
      return resolved(ConfigFactory.parseFile(file.toFile(), options(display)), problems);
    } catch (ConfigException e) {
      throw syntaxError(problems, e);
    }
  }

  /** Text; {@code display} names it in messages. */
  public static Parsed parse(String text, String display) throws Unusable {
    Problems problems = new Problems(display, null);
    refuseDeepNesting(text, problems);
    try {
      return resolved(ConfigFactory.parseString(text, options(display)), problems);
    } catch (ConfigException e) {
      throw syntaxError(problems, e);
    }
  }

  /**
   * The text of a file on the class path, or null when there is none.
   *
   * @param display names the file in the message when it cannot be read
   */
  public static String resource(String path, String display) throws Unusable {
    URL url = HoconFile.class.getClassLoader().getResource(path);
    if (url == null) {
      return null;
    }
    try (InputStream in = url.openStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new Unusable(display + ": cannot read the bundled file: " + e.getMessage());
    }
  }

  /**
   * Refuses text that nests deeper than {@link #MAX_DEPTH} before Typesafe Config recurses into
   * it. A light scan, not a parser: it skips comments and quoted strings, counts the depth of
   * braces and brackets, and adds the dots of a path ({@code a.b.c = 1} nests as deep as three
   * objects). Files pulled in by {@code include} are not scanned.
   */
  static void refuseDeepNesting(String text, Problems problems) throws Unusable {
    java.util.ArrayDeque<Integer> outer = new java.util.ArrayDeque<>();
    int depth = 0;
    int dots = 0;
    int line = 1;
    int n = text.length();
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      if (c == '#' || c == '/' && i + 1 < n && text.charAt(i + 1) == '/') {
        while (i + 1 < n && text.charAt(i + 1) != '\n') {
          i++;
        }
        continue;
      }
      if (c == '"') {
        int end = endOfString(text, i);
        for (int j = i; j < end; j++) {
          line += text.charAt(j) == '\n' ? 1 : 0;
        }
        i = end;
        continue;
      }
      if (c == '.') {
        dots++;
      } else if (c == '{' || c == '[') {
        outer.push(depth);
        depth += dots + 1;
        dots = 0;
      } else if (c == '}' || c == ']') {
        depth = outer.isEmpty() ? 0 : outer.pop();
        dots = 0;
      } else if (c == '\n' || c == ',') {
        dots = 0;
      }
      if (depth + dots > MAX_DEPTH) {
        problems.add(problems.display(), line, "syntax", "nested deeper than " + MAX_DEPTH
            + " levels (objects, lists and dotted paths counted together); refused before parsing");
        throw new Unusable(problems.sorted());
      }
      if (c == '\n') {
        line++;
      }
    }
  }

  /** The index of the closing quote of the string opening at {@code start} ("..." or """..."""). */
  private static int endOfString(String text, int start) {
    if (text.startsWith("\"\"\"", start)) {
      int close = text.indexOf("\"\"\"", start + 3);
      return close < 0 ? text.length() : close + 2;
    }
    for (int i = start + 1; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\\') {
        i++;
      } else if (c == '"' || c == '\n') {
        return c == '\n' ? i - 1 : i;
      }
    }
    return text.length();
  }

  private static Parsed resolved(Config config, Problems problems) {
    return new Parsed(config.resolve(), problems);
  }

  private static ConfigParseOptions options(String display) {
    return ConfigParseOptions.defaults()
        .setSyntax(ConfigSyntax.CONF)
        .setOriginDescription(display)
        .setAllowMissing(false);
  }

  /** HOCON syntax and substitution errors, with Typesafe Config's own origin prefix removed. */
  private static Unusable syntaxError(Problems problems, ConfigException e) {
    String message = e.getMessage();
    if (e.origin() != null) {
      String prefix = e.origin().description() + ": ";
      if (message.startsWith(prefix)) {
        message = message.substring(prefix.length());
      }
    }
    problems.add(e.origin(), "syntax", message);
    return new Unusable(problems.sorted());
  }
}
