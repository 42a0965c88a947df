package io.rackfabric.loadtests.bench;

import io.rackfabric.loadtests.report.AtomicFiles;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.report.Json;
import io.rackfabric.loadtests.report.Machine;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code rack bench} with no name: dataplane, controller, failover, startup and lending, one JSON
 * with a section per benchmark and, at the top, the figures of the last four.
 */
public final class BenchAll {

  private BenchAll() {}

  /** Every value was checked by the caller: the first benchmark runs for minutes. */
  public static int run(DataplaneRun.Settings dataplane, List<Integer> events, int hosts, int racks,
      int lendingRounds, Path json, PrintStream out) throws Exception {
    Map<String, Object> sections = new LinkedHashMap<>();
    // The dataplane section is its whole result document, as its own command writes it.
    sections.put("dataplane", DataplaneRun.result(dataplane, true, true, out));
    List<Map<String, Object>> parts = List.of(
        BenchSections.controllerSection(events, out),
        BenchSections.failoverSection(hosts, out),
        BenchSections.startupSection(racks, out),
        BenchSections.lendingSection(lendingRounds, out));
    List<String> names = List.of("controller", "failover", "startup", "lending");
    List<Object> every = new ArrayList<>();
    for (int i = 0; i < parts.size(); i++) {
      Map<String, Object> part = new LinkedHashMap<>(parts.get(i));
      Object list = part.remove("list");
      every.addAll(((List<?>) list).stream().map(f -> ((Figure) f).toMap()).toList());
      sections.put(names.get(i), part);
    }
    if (json != null) {
      Map<String, Object> result = new LinkedHashMap<>();
      result.put("benchmark", "all");
      result.put("machine", Machine.describe());
      result.put("figures", every);
      result.put("sections", sections);
      AtomicFiles.writeString(json, Json.write(result));
      out.println("wrote " + json);
    }
    return 0;
  }
}
