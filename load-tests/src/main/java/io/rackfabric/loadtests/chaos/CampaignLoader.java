package io.rackfabric.loadtests.chaos;

import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.rackfabric.loadtests.scenario.language.KindCatalog;
import io.rackfabric.loadtests.scenario.language.Mode;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioException;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.cluster.topology.Fields;
import io.rackfabric.cluster.topology.HoconFile;
import io.rackfabric.cluster.topology.Problems;
import java.nio.file.Path;
import io.rackfabric.loadtests.scenario.language.FaultRates;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Loads a campaign file ({@code campaign { scenarios, seeds, parallel, heap-per-run, mode,
 * fault-rates }}) and checks it before anything starts: unknown keys, scenarios that are neither a
 * file nor bundled, seeds, more parallel runs than this machine has processors or this JVM has
 * heap for, fault rates for unknown kinds or outside [0, 1], and every
 * scenario with every seed, each problem as {@code file:line: key: reason}.
 */
public final class CampaignLoader {

  /** Campaigns shipped in this module, loadable by name. */
  public static final List<String> BUNDLED = List.of("failover-seeds", "random-flaps");

  /** How many seeds a campaign may name: each is a whole run. */
  static final int MAX_SEEDS = 10_000;

  /**
   * The heap a single-JVM run is taken to need unless the campaign says ({@code heap-per-run}): a
   * rack's actor system, its traffic tallies and its figures. A rough allowance, not a measurement.
   */
  static final long DEFAULT_HEAP_PER_RUN = 256L << 20;

  private CampaignLoader() {}

  /** As {@link #load(String, KindCatalog, int, long)} with this JVM's maximum heap. */
  public static Campaign load(String arg, KindCatalog<?, ?, ?> catalog, int processors) throws ScenarioException {
    return load(arg, catalog, processors, Runtime.getRuntime().maxMemory());
  }

  /**
   * A campaign file, or a bundled campaign of that name.
   *
   * @param processors and {@code maxHeap} (bytes): what parallel single-JVM runs share
   */
  public static Campaign load(String arg, KindCatalog<?, ?, ?> catalog, int processors, long maxHeap)
      throws ScenarioException {
    Path path = Path.of(arg);
    HoconFile.Parsed parsed;
    Path baseDir;
    try {
      if (path.toFile().exists()) {
        parsed = HoconFile.load(path, "campaign");
        baseDir = path.toAbsolutePath().getParent();
      } else {
        String name = arg.endsWith(".conf") ? arg.substring(0, arg.length() - 5) : arg;
        String text = BUNDLED.contains(name) ? HoconFile.resource("campaigns/" + name + ".conf", name + ".conf") : null;
        if (text == null) {
          throw new ScenarioException(arg + ": no such file and no bundled campaign of that name (bundled: "
              + String.join(", ", BUNDLED) + ")");
        }
        parsed = HoconFile.parse(text, name + ".conf");
        baseDir = null;
      }
    } catch (HoconFile.Unusable e) {
      throw new ScenarioException(e.problems());
    }
    return check(parsed, catalog, processors, maxHeap, baseDir,
        path.getFileName().toString().replaceFirst("\\.conf$", ""));
  }

  private static Campaign check(HoconFile.Parsed parsed, KindCatalog<?, ?, ?> catalog, int processors, long maxHeap,
      Path baseDir, String defaultName) throws ScenarioException {
    Problems problems = parsed.problems();
    ConfigValue root = parsed.config().root().get("campaign");
    if (root == null || root.valueType() != ConfigValueType.OBJECT) {
      problems.add(parsed.config().root().origin(), "campaign", "expected a top-level campaign { ... } object");
      throw new ScenarioException(problems.sorted());
    }
    for (String k : parsed.config().root().keySet()) {
      if (!k.equals("campaign")) {
        problems.add(parsed.config().root().get(k).origin(), k, "unknown key; allowed at top level: campaign");
      }
    }
    Fields f = new Fields((ConfigObject) root, "campaign", problems);
    f.allowOnly("name", "scenarios", "seeds", "parallel", "heap-per-run", "mode", "fault-rates");
    String name = f.has("name") ? f.string("name", true) : defaultName;
    Integer parallel = f.integer("parallel", 1);
    if (parallel != null && (parallel < 1 || parallel > processors)) {
      f.error("parallel", "parallel=" + parallel + " not in [1, " + processors + "]: this machine has " + processors
          + " processors, and each run keeps at least one busy");
    }
    Mode mode = null;
    if (f.has("mode")) {
      String m = f.string("mode", true);
      mode = m == null ? null : Mode.parse(m).orElse(null);
      if (m != null && mode == null) {
        f.error("mode", "mode=" + m + " not in {single-jvm, multi-jvm}");
      }
    }
    Long heapPerRun = f.address("heap-per-run", false);
    if (heapPerRun == null) {
      heapPerRun = DEFAULT_HEAP_PER_RUN;
    } else if (heapPerRun < 1) {
      f.error("heap-per-run", "heap-per-run=" + heapPerRun + " must be above 0");
      heapPerRun = DEFAULT_HEAP_PER_RUN;
    }
    Map<String, Double> faultRates = faultRates(f, catalog);
    List<Long> seeds = seeds(f);
    List<Campaign.Run> runs = new ArrayList<>();
    var list = f.list("scenarios", true);
    if (list != null && list.isEmpty()) {
      f.error("scenarios", "no scenario to run");
    }
    if (list != null && seeds != null) {
      for (int i = 0; i < list.size(); i++) {
        ConfigValue v = list.get(i);
        String key = "scenarios[" + i + "]";
        if (v.valueType() != ConfigValueType.STRING) {
          problems.add(v.origin(), f.key(key), "expected a scenario file or bundled name, got " + Fields.describe(v));
          continue;
        }
        String arg = resolve((String) v.unwrapped(), baseDir);
        for (long seed : seeds) {
          try {
            runs.add(new Campaign.Run(arg, seed,
                ScenarioLoader.loadFileOrBundled(arg, catalog, new ScenarioOptions(mode, seed, null, faultRates))));
          } catch (ScenarioException e) {
            for (String p : e.problems()) {
              problems.add(v.origin(), f.key(key), "scenario " + v.unwrapped() + " with seed " + seed + ": " + p);
            }
            break; // one seed's problems say it; the others would repeat them
          }
        }
      }
    }
    long single = runs.stream().filter(r -> r.scenario().mode() == Mode.SINGLE_JVM).count();
    long atOnce = parallel == null ? 1 : Math.min(parallel, single);
    if (atOnce * heapPerRun > maxHeap) {
      f.error("parallel", "parallel=" + parallel + ": " + atOnce + " single-JVM runs at once need about " + atOnce
          + " x " + mib(heapPerRun) + " of heap (heap-per-run), and this JVM has " + mib(maxHeap) + ": give parallel = "
          + Math.max(1, maxHeap / heapPerRun) + ", or more heap (RACK_JAVA_OPTS=-Xmx...)");
    }
    if (!problems.isEmpty()) {
      throw new ScenarioException(problems.sorted());
    }
    return new Campaign(name, problems.display(), runs, seeds, parallel, faultRates);
  }

  private static String mib(long bytes) {
    return (bytes >> 20) + "MiB";
  }

  /** {@code fault-rates { link-flap = 0.5 }}: known kinds, each a chance in [0, 1]. */
  private static Map<String, Double> faultRates(Fields f, KindCatalog<?, ?, ?> catalog) {
    Fields r = f.object("fault-rates", false);
    Map<String, Double> rates = new TreeMap<>();
    if (r == null) {
      return rates;
    }
    for (String kind : new TreeSet<>(r.keys())) {
      ConfigValue v = r.raw(kind);
      if (v.valueType() != ConfigValueType.NUMBER) {
        r.error(kind, "expected a chance in [0, 1], got " + Fields.describe(v));
        continue;
      }
      double rate = ((Number) v.unwrapped()).doubleValue();
      Optional<String> problem = FaultRates.problem(kind, rate, catalog);
      if (problem.isPresent()) {
        r.error(kind, problem.get());
      } else {
        rates.put(kind, rate);
      }
    }
    return rates;
  }

  /** {@code seeds = [1, 7]} or {@code seeds = { from = 1, count = 10 }}; default: seed 1. */
  private static List<Long> seeds(Fields f) {
    if (!f.has("seeds")) {
      return List.of(1L);
    }
    ConfigValue v = f.raw("seeds");
    List<Long> seeds = new ArrayList<>();
    if (v.valueType() == ConfigValueType.LIST) {
      for (ConfigValue s : (Iterable<ConfigValue>) f.list("seeds", true)) {
        if (s.valueType() != ConfigValueType.NUMBER) {
          f.error("seeds", "expected whole numbers, got " + Fields.describe(s));
          return null;
        }
        seeds.add(((Number) s.unwrapped()).longValue());
      }
    } else if (v.valueType() == ConfigValueType.OBJECT) {
      Fields range = f.object("seeds", true);
      range.allowOnly("from", "count");
      Integer from = range.integer("from", 1);
      Integer count = range.integer("count", 1);
      if (from == null || count == null) {
        return null;
      }
      if (count < 1 || count > MAX_SEEDS) {
        range.error("count", "count=" + count + " not in [1, " + MAX_SEEDS + "]");
        return null;
      }
      for (long s = from; s < (long) from + count; s++) {
        seeds.add(s);
      }
    } else {
      f.error("seeds", "expected a list of seeds or { from, count }, got " + Fields.describe(v));
      return null;
    }
    if (seeds.isEmpty() || seeds.size() > MAX_SEEDS || seeds.stream().distinct().count() != seeds.size()) {
      f.error("seeds", "seeds=" + seeds + ": need 1 to " + MAX_SEEDS + " distinct seeds");
      return null;
    }
    return seeds.stream().sorted().toList();
  }

  /** A scenario path relative to the campaign file, or a bundled name as it is. */
  private static String resolve(String arg, Path baseDir) {
    if (baseDir == null || ScenarioLoader.BUNDLED.contains(arg.replaceFirst("\\.conf$", ""))) {
      return arg;
    }
    Path p = baseDir.resolve(arg);
    return p.toFile().exists() ? p.toString() : arg;
  }
}
