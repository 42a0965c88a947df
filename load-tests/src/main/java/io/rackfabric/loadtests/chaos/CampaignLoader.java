package io.rackfabric.loadtests.chaos;

import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.rackfabric.cluster.scenario.KindCatalog;
import io.rackfabric.cluster.scenario.Mode;
import io.rackfabric.cluster.scenario.Scenario;
import io.rackfabric.cluster.scenario.ScenarioException;
import io.rackfabric.cluster.scenario.ScenarioOptions;
import io.rackfabric.cluster.topology.Fields;
import io.rackfabric.cluster.topology.HoconFile;
import io.rackfabric.cluster.topology.Problems;
import io.rackfabric.loadtests.scenario.RunCommand;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Loads a campaign file ({@code campaign { scenarios, seeds, parallel, mode }}) and checks it
 * before anything starts: unknown keys, scenarios that are neither a file nor bundled, seeds, more
 * parallel runs than this machine has processors, and every scenario with every seed, each
 * problem as {@code file:line: key: reason}.
 */
public final class CampaignLoader {

  /** Campaigns shipped in this module, loadable by name. */
  public static final List<String> BUNDLED = List.of("failover-seeds");

  /** How many seeds a campaign may name: each is a whole run. */
  static final int MAX_SEEDS = 10_000;

  private CampaignLoader() {}

  /** A campaign file, or a bundled campaign of that name. */
  public static Campaign load(String arg, KindCatalog<?, ?, ?> catalog, int processors) throws ScenarioException {
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
    return check(parsed, catalog, processors, baseDir, path.getFileName().toString().replaceFirst("\\.conf$", ""));
  }

  private static Campaign check(HoconFile.Parsed parsed, KindCatalog<?, ?, ?> catalog, int processors, Path baseDir,
      String defaultName) throws ScenarioException {
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
    f.allowOnly("name", "scenarios", "seeds", "parallel", "mode");
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
            runs.add(new Campaign.Run(arg, seed, RunCommand.load(arg, catalog, new ScenarioOptions(mode, seed, null))));
          } catch (ScenarioException e) {
            for (String p : e.problems()) {
              problems.add(v.origin(), f.key(key), "scenario " + v.unwrapped() + " with seed " + seed + ": " + p);
            }
            break; // one seed's problems say it; the others would repeat them
          }
        }
      }
    }
    if (!problems.isEmpty()) {
      throw new ScenarioException(problems.sorted());
    }
    return new Campaign(name, problems.display(), runs, seeds, parallel);
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
    if (baseDir == null || RunCommand.BUNDLED.contains(arg.replaceFirst("\\.conf$", ""))) {
      return arg;
    }
    Path p = baseDir.resolve(arg);
    return p.toFile().exists() ? p.toString() : arg;
  }
}
