package io.rackfabric.loadtests.scenario.language;

import io.rackfabric.cluster.topology.HoconFile;
import io.rackfabric.cluster.topology.Problems;
import java.io.IOException;
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

  /** Scenarios shipped in this module ({@code scenarios/NAME.conf}), loadable by name. */
  public static final List<String> BUNDLED = List.of("link-down-demo", "link-flap-ladon", "kill-node-demo",
      "ch-link-failover", "failover-table2", "dual-star-switch", "mmh-takeover", "mmh-restart", "mmh-switchover", "mmh-switchover-multi-jvm", "mmh-double-takeover",
      "mmh-false-suspicion", "mmh-false-suspicion-rejoin", "mmh-false-suspicion-twice", "mmh-partition", "mmh-partition-model-time", "mmh-takeover-model-time", "mmh-double-takeover-model-time", "ftgm-campaign", "random-link-flaps", "nic-hang-ladon",
      "nic-hang-ladon-gm", "rack-48", "multirack-1000", "tlp-corrupt-demo", "tlp-drop-demo", "contend",
      "iommu-isolation", "partition-demo", "pause-demo", "lending-ram-latency-b2b", "lending-ram-latency-3way",
      "lending-bandwidth-b2b", "lending-bandwidth-b2b-iommu", "lending-disk-latency-b2b", "lending-p2p-3way",
      "lending-p2p-3way-iommu", "lending-p2p-bandwidth-3way", "lending-p2p-bandwidth-3way-iommu",
      "lending-controller", "lending-vm-guest", "lending-vm-guest-refused", "lending-vm-disk-latency",
      "lending-disk-lender-dies", "lending-vm-p2p-bandwidth",
      "lending-mmh-takeover", "lending-vm-hops", "lending-vm-bandwidth", "lending-vm-bandwidth-vm", "fm-flow-control",
      "fm-discover", "fm-failover", "fm-controller-takeover", "fm-device-removed", "fm-routes", "fm-new-secondary", "fm-ntb-windows",
      "lending-lender-dies", "lending-lender-dies-after-switchover",
      "lending-borrower-link-fails", "lending-lender-link-fails", "lending-hot-plug", "lending-two-borrowers",
      "lending-dma-outside-window", "lending-disk-loan", "lending-disk-loan-lender-dies", "lending-disk-loan-link-fails");

  private ScenarioLoader() {}

  /**
   * What a command line names a scenario by ({@code rack run ARG}, a campaign's {@code
   * scenarios}): the file at {@code arg} if one exists, else the bundled scenario of that name
   * (with or without {@code .conf}).
   */
  public static Scenario loadFileOrBundled(String arg, KindCatalog<?, ?, ?> catalog, ScenarioOptions options)
      throws ScenarioException {
    Path path = Path.of(arg);
    if (Files.exists(path)) {
      return load(path, catalog, options);
    }
    String name = bundledName(arg);
    if (BUNDLED.contains(name)) {
      return loadBundled(name, catalog, options);
    }
    throw new ScenarioException(arg + ": no such file and no bundled scenario of that name (bundled: "
        + String.join(", ", BUNDLED) + ")");
  }

  /** The text {@link #loadFileOrBundled} reads the scenario from, for a run's copy of it. */
  public static String text(String arg) throws IOException {
    Path path = Path.of(arg);
    if (Files.exists(path)) {
      return Files.readString(path);
    }
    String name = bundledName(arg);
    try {
      return HoconFile.resource(RESOURCE_DIR + name + ".conf", name + ".conf");
    } catch (HoconFile.Unusable e) {
      throw new IOException(String.join("; ", e.problems()));
    }
  }

  private static String bundledName(String arg) {
    return arg.endsWith(".conf") ? arg.substring(0, arg.length() - 5) : arg;
  }

  /** Loads a scenario file; its {@code topology} path is taken relative to the file's folder. */
  public static Scenario load(Path file, KindCatalog<?, ?, ?> catalog, ScenarioOptions options)
      throws ScenarioException {
    HoconFile.Parsed parsed;
    try {
      parsed = HoconFile.load(file, "scenario");
    } catch (HoconFile.Unusable e) {
      throw new ScenarioException(e.problems());
    }
    return check(parsed, catalog, options, file.toAbsolutePath().getParent());
  }

  /** Loads a scenario bundled on the class path ({@code scenarios/NAME.conf}). */
  public static Scenario loadBundled(String name, KindCatalog<?, ?, ?> catalog, ScenarioOptions options)
      throws ScenarioException {
    String file = name.endsWith(".conf") ? name : name + ".conf";
    String text;
    try {
      text = HoconFile.resource(RESOURCE_DIR + file, file);
    } catch (HoconFile.Unusable e) {
      throw new ScenarioException(e.problems());
    }
    if (text == null) {
      throw new ScenarioException(file + ": no bundled scenario '" + name + "'");
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
    HoconFile.Parsed parsed;
    try {
      parsed = HoconFile.parse(text, display);
    } catch (HoconFile.Unusable e) {
      throw new ScenarioException(e.problems());
    }
    return check(parsed, catalog, options, baseDir);
  }

  private static Scenario check(HoconFile.Parsed parsed, KindCatalog<?, ?, ?> catalog,
      ScenarioOptions options, Path baseDir) throws ScenarioException {
    Problems problems = parsed.problems();
    ScenarioParser parser = new ScenarioParser(problems, catalog, options, baseDir);
    Scenario scenario;
    try {
      scenario = parser.parse(parsed.config().root());
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
}
