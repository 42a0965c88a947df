package io.rackfabric.loadtests.bench;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigSyntax;
import io.rackfabric.cluster.cli.UsageException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code rack bench compare A.json B.json}: two result files of {@code rack bench} (any
 * benchmark: their {@code figures} lists) side by side, with B/A per figure of the same name.
 * Whether a ratio above 1 is better depends on the unit (ns/op: worse; ops/s: better), so the
 * unit is printed with it.
 */
public final class BenchCompare {

  /** A figure as a result file holds it; value null when it was not a number (NaN). */
  record Entry(Double value, String unit) {}

  private BenchCompare() {}

  public static int run(List<String> args, PrintStream out) throws Exception {
    if (args.size() != 2) {
      throw new UsageException("compare needs two result files, got " + args + " (rack bench compare A.json B.json)");
    }
    Path a = Path.of(args.get(0));
    Path b = Path.of(args.get(1));
    Config docA = load(a);
    Config docB = load(b);
    Map<String, Entry> figuresA = figures(docA, a);
    Map<String, Entry> figuresB = figures(docB, b);
    out.println("A: " + a + " " + describe(docA));
    out.println("B: " + b + " " + describe(docB));
    out.printf("%-44s %14s %14s %9s  %s%n", "figure", "A", "B", "B/A", "unit");
    for (Map.Entry<String, Entry> e : figuresA.entrySet()) {
      Entry x = e.getValue();
      Entry y = figuresB.get(e.getKey());
      if (y == null) {
        out.printf("%-44s %14s %14s %9s  %s%n", e.getKey(), number(x.value()), "-", "only in A", x.unit());
      } else if (!x.unit().equals(y.unit())) {
        out.printf("%-44s %14s %14s %9s  %s%n", e.getKey(), number(x.value()), number(y.value()), "-",
            "units differ: " + x.unit() + " vs " + y.unit());
      } else {
        out.printf("%-44s %14s %14s %9s  %s%n", e.getKey(), number(x.value()), number(y.value()),
            ratio(x.value(), y.value()), x.unit());
      }
    }
    for (Map.Entry<String, Entry> e : figuresB.entrySet()) {
      if (!figuresA.containsKey(e.getKey())) {
        out.printf("%-44s %14s %14s %9s  %s%n", e.getKey(), "-", number(e.getValue().value()), "only in B",
            e.getValue().unit());
      }
    }
    out.println("B/A below 1: B took less time per operation (ns/op, s) or had a lower rate (per s)");
    return 0;
  }

  private static Config load(Path file) throws UsageException {
    if (!Files.isRegularFile(file)) {
      throw new UsageException("no result file " + file);
    }
    try {
      return ConfigFactory.parseFile(file.toFile(), ConfigParseOptions.defaults().setSyntax(ConfigSyntax.JSON));
    } catch (ConfigException e) {
      throw new UsageException(file + " is not a JSON result file: " + e.getMessage());
    }
  }

  /** The figures of a result file by name, in file order. */
  static Map<String, Entry> figures(Config doc, Path file) throws UsageException {
    Map<String, Entry> out = new LinkedHashMap<>();
    try {
      List<? extends Config> list = doc.getConfigList("figures");
      for (int i = 0; i < list.size(); i++) {
        Config f = list.get(i);
        String name = f.getString("name");
        Double value = f.getIsNull("value") ? null : f.getDouble("value");
        if (out.put(name, new Entry(value, f.hasPath("unit") ? f.getString("unit") : "")) != null) {
          throw new UsageException(file + ": figure " + name + " appears twice");
        }
      }
    } catch (ConfigException e) {
      throw new UsageException(file + " has no list of figures with name and value: " + e.getMessage());
    }
    return out;
  }

  private static String describe(Config doc) {
    StringBuilder b = new StringBuilder("(");
    b.append(doc.hasPath("benchmark") ? doc.getString("benchmark") : "?");
    if (doc.hasPath("date")) {
      b.append(", ").append(doc.getString("date"));
    }
    if (doc.hasPath("machine.cores")) {
      b.append(", ").append(doc.getInt("machine.cores")).append(" cores");
    }
    if (doc.hasPath("machine.cpu")) {
      b.append(", ").append(doc.getString("machine.cpu"));
    }
    if (doc.hasPath("machine.load_average_before") && doc.hasPath("machine.load_average_after")) {
      b.append(String.format(Locale.ROOT, ", load %.1f-%.1f", doc.getDouble("machine.load_average_before"),
          doc.getDouble("machine.load_average_after")));
    }
    if (doc.hasPath("machine.java")) {
      b.append(", ").append(doc.getString("machine.java"));
    }
    return b.append(')').toString();
  }

  private static String number(Double v) {
    return v == null ? "null" : String.format(Locale.ROOT, "%,.2f", v);
  }

  private static String ratio(Double a, Double b) {
    return a == null || b == null || a == 0 ? "-" : String.format(Locale.ROOT, "%.3f", b / a);
  }
}
