package io.rackfabric.cluster.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigSyntax;
import io.rackfabric.cluster.topology.Problems;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Loads and checks scenario files (HOCON; the format is described in {@code scenarios/README.md}
 * next to the bundled ones). Every problem is reported at once, each as {@code file:line: key:
 * reason}, in one {@link ScenarioException}; a scenario that loads has a valid topology, traffic
 * that routes, and a fault schedule that fits the run, so nothing starts that will be refused
 * later.
 */
public final class ScenarioLoader {

  /** Where bundled scenarios live on the class path. */
  public static final String RESOURCE_DIR = "scenarios/";

  private ScenarioLoader() {}

  /** Loads a scenario file; its {@code topology} path is taken relative to the file's folder. */
  public static Scenario load(Path file, KindCatalog<?, ?, ?> catalog, ScenarioOptions options)
      throws ScenarioException {
    String display = file.toString();
    if (!Files.exists(file)) {
      throw new ScenarioException(display + ": file not found");
    }
    if (Files.isDirectory(file)) {
      throw new ScenarioException(display + ": is a directory, not a scenario file");
    }
    if (!Files.isReadable(file)) {
      throw new ScenarioException(display + ": cannot read the file (permission denied)");
    }
    Problems problems = new Problems(display, file);
    Config config;
    try {
      config = ConfigFactory.parseFile(file.toFile(), options(display));
    } catch (ConfigException e) {
      throw syntaxError(problems, e);
    }
    Path dir = file.toAbsolutePath().getParent();
    return check(config, problems, catalog, options, dir);
  }

  /** Loads a scenario bundled on the class path ({@code scenarios/NAME.conf}). */
  public static Scenario loadBundled(String name, KindCatalog<?, ?, ?> catalog, ScenarioOptions options)
      throws ScenarioException {
    String file = name.endsWith(".conf") ? name : name + ".conf";
    URL url = ScenarioLoader.class.getClassLoader().getResource(RESOURCE_DIR + file);
    if (url == null) {
      throw new ScenarioException(file + ": no bundled scenario '" + name + "'");
    }
    String text;
    try (InputStream in = url.openStream()) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new ScenarioException(file + ": cannot read the bundled file: " + e.getMessage());
    }
    return parse(text, file, null, catalog, options);
  }

  /**
   * Parses scenario text; {@code display} names it in messages.
   *
   * @param baseDir where a {@code topology} path is resolved from; null: the working directory
   */
  public static Scenario parse(String text, String display, Path baseDir, KindCatalog<?, ?, ?> catalog,
      ScenarioOptions options) throws ScenarioException {
    Problems problems = new Problems(display, null);
    Config config;
    try {
      config = ConfigFactory.parseString(text, options(display));
    } catch (ConfigException e) {
      throw syntaxError(problems, e);
    }
    return check(config, problems, catalog, options, baseDir);
  }

  private static ConfigParseOptions options(String display) {
    return ConfigParseOptions.defaults()
        .setSyntax(ConfigSyntax.CONF)
        .setOriginDescription(display)
        .setAllowMissing(false);
  }

  private static Scenario check(Config config, Problems problems, KindCatalog<?, ?, ?> catalog,
      ScenarioOptions options, Path baseDir) throws ScenarioException {
    try {
      config = config.resolve();
    } catch (ConfigException e) {
      throw syntaxError(problems, e);
    }
    ScenarioParser parser = new ScenarioParser(problems, catalog, options, baseDir);
    Scenario scenario;
    try {
      scenario = parser.parse(config.root());
    } catch (RuntimeException e) {
      // A bug in the checker must still not greet the user with a stack trace.
      problems.add(problems.display(), -1, null, "internal error while checking the file (" + e
          + "); please report it with the file");
      scenario = null;
    }
    if (!problems.isEmpty() || !parser.topologyProblems().isEmpty() || scenario == null) {
      List<String> all = new ArrayList<>(problems.sorted());
      all.addAll(parser.topologyProblems());
      if (all.isEmpty()) {
        all.add(problems.display() + ": not a usable scenario");
      }
      throw new ScenarioException(all);
    }
    return scenario;
  }

  /** HOCON syntax and substitution errors, with Typesafe Config's own origin prefix removed. */
  private static ScenarioException syntaxError(Problems problems, ConfigException e) {
    String message = e.getMessage();
    if (e.origin() != null) {
      String prefix = e.origin().description() + ": ";
      if (message.startsWith(prefix)) {
        message = message.substring(prefix.length());
      }
    }
    problems.add(e.origin(), "syntax", message);
    return new ScenarioException(problems.sorted());
  }
}
