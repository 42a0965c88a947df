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
      return resolved(ConfigFactory.parseFile(file.toFile(), options(display)), problems);
    } catch (ConfigException e) {
      throw syntaxError(problems, e);
    }
  }

  /** Text; {@code display} names it in messages. */
  public static Parsed parse(String text, String display) throws Unusable {
    Problems problems = new Problems(display, null);
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
