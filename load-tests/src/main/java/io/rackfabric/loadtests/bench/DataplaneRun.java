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
 * {@code rack bench dataplane}: {@link DataplaneBench}'s two comparisons, in one JVM and across
 * two, printed with their targets; the result document keeps every round's rates.
 */
public final class DataplaneRun {

  /**
   * @param tlps posted writes per round
   * @param transport Artery's transport to the peer JVM
   * @param tlsDir with tls-tcp: the rack's keys folder, or null for the stores in the settings
   */
  public record Settings(long tlps, int rounds, String transport, String tlsDir) {}

  private DataplaneRun() {}

  /**
   * Runs the single-JVM comparison when {@code single}, the cross-JVM one when {@code cross};
   * writes the result to {@code json} unless it is null.
   */
  public static int run(Settings s, boolean single, boolean cross, Path json, PrintStream out) throws Exception {
    Map<String, Object> result = result(s, single, cross, out);
    if (json != null) {
      AtomicFiles.writeString(json, Json.write(result));
      out.println("wrote " + json);
    }
    return 0;
  }

  /** The comparisons' result document: benchmark, machine, parameters, figures and each round's rates. */
  static Map<String, Object> result(Settings s, boolean single, boolean cross, PrintStream out) throws Exception {
    Path runDir = BenchFigures.runDir("bench");
    out.printf("rack bench dataplane: %,d TLPs of %d bytes per round, %d rounds after %d warm-up rounds%n",
        s.tlps(), DataplaneBench.PAYLOAD, s.rounds(), DataplaneBench.WARMUPS);
    List<Figure> figures = new ArrayList<>();
    Map<String, Object> samples = new LinkedHashMap<>();
    List<String> verdicts = new ArrayList<>();
    if (single) {
      out.println("single JVM: two-switch path (6 actors, 5 hops) vs bare tell chain (6 actors)");
      DataplaneBench.Runs local = DataplaneBench.singleJvm(s.tlps(), s.rounds(), out);
      add(figures, samples, "single_jvm.", "fabric_hops_per_s", "hops/s", "bare_chain_hops_per_s", "hops/s", local);
      verdicts.add("single-JVM ratio under the kernel >= 0.5 (" + (local.synchronized_().ratio() >= 0.5 ? "met"
          : "NOT met") + ")");
    }
    if (cross) {
      out.println("across JVMs: one link between two node JVMs vs bare Artery sends, same window");
      DataplaneBench.Runs remote = DataplaneBench.crossJvm(s.tlps(), s.rounds(), s.transport(), s.tlsDir(), runDir,
          out);
      add(figures, samples, "cross_jvm.", "fabric_tlps_per_s", "TLPs/s", "bare_artery_msgs_per_s", "msgs/s", remote);
      verdicts.add("cross-JVM ratio under the kernel >= 0.8 (" + (remote.synchronized_().ratio() >= 0.8 ? "met"
          : "NOT met") + ")");
    }
    out.println();
    out.printf("%-34s %14s  %s%n", "figure (median of rounds; ratio:", "", "median of per-round ratios)");
    for (Figure f : figures) {
      out.printf("%-34s %,14.2f  %s%n", f.name(), f.value(), f.unit());
    }
    out.println("targets: " + String.join(", ", verdicts));

    Map<String, Object> result = new LinkedHashMap<>();
    result.put("benchmark", "dataplane");
    result.put("machine", Machine.describe());
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("tlps_per_round", s.tlps());
    params.put("tlps_per_synchronized_cross_jvm_round", DataplaneBench.synchronizedCrossTlps(s.tlps()));
    params.put("rounds", s.rounds());
    params.put("payload_bytes", DataplaneBench.PAYLOAD);
    params.put("transport", s.transport());
    result.put("parameters", params);
    result.put("figures", figures.stream().map(Figure::toMap).toList());
    result.put("rounds", samples);
    return result;
  }

  /**
   * A comparison's figures: under the kernel as {@code prefix + name}, free-running as
   * {@code prefix + "free." + name}; every round's rates in {@code samples}.
   */
  private static void add(List<Figure> figures, Map<String, Object> samples, String prefix, String fabric,
      String fabricUnit, String bare, String bareUnit, DataplaneBench.Runs runs) {
    for (boolean free : List.of(true, false)) {
      DataplaneBench.Comparison c = free ? runs.free() : runs.synchronized_();
      String p = prefix + (free ? "free." : "");
      figures.add(new Figure(p + fabric, c.fabricMedian(), fabricUnit, "wall"));
      figures.add(new Figure(p + bare, c.bareMedian(), bareUnit, "wall"));
      figures.add(new Figure(p + "ratio", c.ratio(), "fabric/bare", "wall"));
      samples.put(p + fabric, c.fabric());
      samples.put(p + bare, c.bare());
    }
  }
}
