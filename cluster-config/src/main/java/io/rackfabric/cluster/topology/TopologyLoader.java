package io.rackfabric.cluster.topology;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Loads and validates topology files (HOCON; the format is described in {@code
 * topologies/README.md} next to the bundled files). Every problem in a file is reported at once,
 * each as {@code file:line: key: reason}, in one {@link TopologyException}; nothing else escapes,
 * so a malformed file never shows a user a stack trace.
 */
public final class TopologyLoader {

  /** The topologies shipped in this module, loadable by these short names. */
  public static final List<String> BUNDLED =
      List.of("fig1", "multipeer16", "ladon-testbed", "demo", "lending-b2b", "lending-3way", "ladon-lending",
          "lending-vm", "fm-fig5", "ladon-lending-3ch");

  private static final String RESOURCE_DIR = "topologies/";

  private TopologyLoader() {}

  /** Loads a topology file from disk; the path as given names it in messages. */
  public static Topology load(Path file) throws TopologyException {
    return load(file, HostCheck.NONE);
  }

  /** As {@link #load(Path)}, looking up the node hosts {@code hosts} names. */
  public static Topology load(Path file, HostCheck hosts) throws TopologyException {
    try {
      return check(HoconFile.load(file, "topology"), hosts);
    } catch (HoconFile.Unusable e) {
      throw new TopologyException(e.problems());
    }
  }

  /**
   * Loads a bundled topology by short name ({@code "fig1"}) or resource file name ({@code
   * "fig1.conf"}); messages name it {@code fig1.conf}.
   */
  public static Topology load(String resourceName) throws TopologyException {
    return load(resourceName, HostCheck.NONE);
  }

  /** As {@link #load(String)}, looking up the node hosts {@code hosts} names. */
  public static Topology load(String resourceName, HostCheck hosts) throws TopologyException {
    String file = resourceName.endsWith(".conf") ? resourceName : resourceName + ".conf";
    String text;
    try {
      text = HoconFile.resource(RESOURCE_DIR + file, file);
    } catch (HoconFile.Unusable e) {
      throw new TopologyException(e.problems());
    }
    if (text == null) {
      throw new TopologyException(
          file + ": no bundled topology '" + resourceName + "' (bundled: "
              + String.join(", ", BUNDLED) + ")");
    }
    return parse(text, file, hosts);
  }

  /** Parses topology text; {@code display} names it in messages. Used for tests and stdin. */
  public static Topology parse(String text, String display) throws TopologyException {
    return parse(text, display, HostCheck.NONE);
  }

  /** As {@link #parse(String, String)}, looking up the node hosts {@code hosts} names. */
  public static Topology parse(String text, String display, HostCheck hosts) throws TopologyException {
    try {
      return check(HoconFile.parse(text, display), hosts);
    } catch (HoconFile.Unusable e) {
      throw new TopologyException(e.problems());
    }
  }

  /**
   * What the command line takes: an existing file, else a bundled name. An argument that looks like
   * a path ({@code /} or {@code .conf}) but does not exist is reported as a missing file.
   */
  public static Topology loadFileOrBundled(String arg) throws TopologyException {
    return loadFileOrBundled(arg, HostCheck.NONE);
  }

  /** As {@link #loadFileOrBundled(String)}, looking up the node hosts {@code hosts} names. */
  public static Topology loadFileOrBundled(String arg, HostCheck hosts) throws TopologyException {
    Path path = Path.of(arg);
    if (Files.exists(path)) {
      return load(path, hosts);
    }
    String lower = arg.toLowerCase(Locale.ROOT);
    String name = lower.endsWith(".conf") ? arg.substring(0, arg.length() - 5) : arg;
    if (BUNDLED.contains(name)) {
      return load(name, hosts);
    }
    if (arg.contains("/") || arg.contains(java.io.File.separator) || lower.endsWith(".conf")) {
      throw new TopologyException(arg + ": file not found");
    }
    throw new TopologyException(
        arg + ": no such file and no bundled topology of that name (bundled: "
            + String.join(", ", BUNDLED) + ")");
  }

  private static Topology check(HoconFile.Parsed parsed, HostCheck hosts) throws TopologyException {
    Problems problems = parsed.problems();
    String display = problems.display();
    Topology topology;
    try {
      topology = new TopologyParser(problems, hosts).parse(parsed.config().root(), display);
    } catch (RuntimeException e) {
      // A bug in the checker must still not greet the user with a stack trace.
      problems.add(display, -1, null, "internal error while checking the file ("
          + e + "); please report it with the file");
      topology = null;
    }
    if (!problems.isEmpty() || topology == null) {
      throw new TopologyException(problems.sorted());
    }
    return topology;
  }
}
