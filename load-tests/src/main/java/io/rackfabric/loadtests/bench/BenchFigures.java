package io.rackfabric.loadtests.bench;

import io.rackfabric.loadtests.report.AtomicFiles;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.report.Json;
import io.rackfabric.loadtests.report.Machine;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What every {@code rack bench} benchmark does with its figures: prints them, makes its JSON
 * section (parameters and figures) and writes its result file.
 */
final class BenchFigures {

  private BenchFigures() {}

  /** A fresh run folder under target/rack-runs, named by the benchmark and the time. */
  static Path runDir(String name) {
    return Path.of("target", "rack-runs", name + "-" + Instant.now().toString().replace(':', '-'));
  }

  /** Prints a benchmark's figures and returns its JSON section: parameters, figures, and the list for the totals. */
  static Map<String, Object> section(Map<String, Object> parameters, List<Figure> figures, PrintStream out) {
    out.println();
    for (Figure f : figures) {
      out.printf("%-48s %,18.2f  %s (%s)%n", f.name(), f.value(), f.unit(), f.clock());
    }
    Map<String, Object> section = new LinkedHashMap<>();
    section.put("parameters", parameters);
    section.put("figures", figures.stream().map(Figure::toMap).toList());
    section.put("list", figures);
    return section;
  }

  /** Writes {@code section} as the result file of {@code benchmark}; nothing when {@code json} is null. */
  static void write(Path json, String benchmark, Map<String, Object> section, PrintStream out) throws IOException {
    if (json == null) {
      return;
    }
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("benchmark", benchmark);
    result.put("machine", Machine.describe());
    section.forEach((k, v) -> {
      if (!k.equals("list")) {
        result.put(k, v);
      }
    });
    AtomicFiles.writeString(json, Json.write(result));
    out.println("wrote " + json);
  }
}
