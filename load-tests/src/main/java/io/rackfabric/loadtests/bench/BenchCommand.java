package io.rackfabric.loadtests.bench;

import io.rackfabric.cluster.cli.Args;
import io.rackfabric.cluster.cli.RackCommand;
import io.rackfabric.cluster.cli.UsageException;
import io.rackfabric.host.controlplane.TakeoverBreakdown;
import io.rackfabric.loadtests.bench.jmh.JmhBench;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.report.Json;
import io.rackfabric.loadtests.report.Machine;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code rack bench dataplane}: the fabric against the bare runtime, with ratios; {@code rack bench
 * controller}: the control plane's replicated writes, take-over and replay against the bare journal;
 * {@code rack bench jmh}: micro-benchmarks of the pure domain code ({@link JmhBench}); {@code rack
 * bench compare}: two result files side by side ({@link BenchCompare}).
 */
public final class BenchCommand implements RackCommand {

  @Override
  public String name() {
    return "bench";
  }

  @Override
  public String summary() {
    return "benchmarks against the bare runtime: dataplane [--tlps N] [--rounds R] [--transport T] [--json OUT];"
        + " controller [--events N] [--json OUT]; jmh [--quick] [--only REGEX] [--json OUT]; compare A.json B.json";
  }

  @Override
  public int run(List<String> argList, PrintStream out, PrintStream err) throws Exception {
    if (!argList.isEmpty() && (argList.get(0).equals("jmh") || argList.get(0).equals("compare"))) {
      List<String> rest = argList.subList(1, argList.size());
      return argList.get(0).equals("jmh") ? JmhBench.run(rest, out) : BenchCompare.run(rest, out);
    }
    Args args = Args.parse(argList, Set.of("tlps", "rounds", "transport", "json", "only", "events"), Set.of());
    List<String> what = args.positional();
    if (what.size() > 1 || (what.size() == 1 && !what.get(0).equals("dataplane") && !what.get(0).equals("controller"))) {
      throw new UsageException("unknown benchmark " + what + " (benchmarks: dataplane, controller, jmh, compare)");
    }
    if (what.equals(List.of("controller"))) {
      return controller(args, out);
    }
    long tlps = args.getLong("tlps", 200_000, 1_000, 100_000_000);
    int rounds = (int) args.getLong("rounds", 5, 1, 50);
    String transport = args.get("transport", "aeron-udp");
    if (!transport.equals("aeron-udp") && !transport.equals("tcp")) {
      throw new UsageException("--transport=" + transport + " not in {aeron-udp, tcp}");
    }
    String only = args.get("only", "all");
    if (!only.equals("all") && !only.equals("single") && !only.equals("cross")) {
      throw new UsageException("--only=" + only + " not in {single, cross}");
    }
    Path runDir = Path.of("target", "rack-runs", "bench-" + Instant.now().toString().replace(':', '-'));

    out.printf("rack bench dataplane: %,d TLPs of %d bytes per round, %d rounds after %d warm-up rounds%n",
        tlps, DataplaneBench.PAYLOAD, rounds, DataplaneBench.WARMUPS);
    List<Figure> figures = new ArrayList<>();
    Map<String, Object> samples = new LinkedHashMap<>();
    List<String> verdicts = new ArrayList<>();
    if (!only.equals("cross")) {
      out.println("single JVM: two-switch path (6 actors, 5 hops) vs bare tell chain (6 actors)");
      DataplaneBench.Comparison local = DataplaneBench.singleJvm(tlps, rounds, out);
      figures.add(new Figure("single_jvm.fabric_hops_per_s", local.fabricMedian(), "hops/s", "wall"));
      figures.add(new Figure("single_jvm.bare_chain_hops_per_s", local.bareMedian(), "hops/s", "wall"));
      figures.add(new Figure("single_jvm.ratio", local.ratio(), "fabric/bare", "wall"));
      samples.put("single_jvm.fabric_hops_per_s", local.fabric());
      samples.put("single_jvm.bare_chain_hops_per_s", local.bare());
      verdicts.add("single-JVM ratio >= 0.5 (" + (local.ratio() >= 0.5 ? "met" : "NOT met") + ")");
    }
    if (!only.equals("single")) {
      out.println("across JVMs: one link between two node JVMs vs bare Artery sends, same window");
      DataplaneBench.Comparison remote = DataplaneBench.crossJvm(tlps, rounds, transport, runDir, out);
      figures.add(new Figure("cross_jvm.fabric_tlps_per_s", remote.fabricMedian(), "TLPs/s", "wall"));
      figures.add(new Figure("cross_jvm.bare_artery_msgs_per_s", remote.bareMedian(), "msgs/s", "wall"));
      figures.add(new Figure("cross_jvm.ratio", remote.ratio(), "fabric/bare", "wall"));
      samples.put("cross_jvm.fabric_tlps_per_s", remote.fabric());
      samples.put("cross_jvm.bare_artery_msgs_per_s", remote.bare());
      verdicts.add("cross-JVM ratio >= 0.8 (" + (remote.ratio() >= 0.8 ? "met" : "NOT met") + ")");
    }

    out.println();
    out.printf("%-34s %14s  %s%n", "figure (median of rounds; ratio:", "", "median of per-round ratios)");
    for (Figure f : figures) {
      out.printf("%-34s %,14.2f  %s%n", f.name(), f.value(), f.unit());
    }
    out.println("targets: " + String.join(", ", verdicts));

    if (args.has("json")) {
      Map<String, Object> result = new LinkedHashMap<>();
      result.put("benchmark", "dataplane");
      result.put("machine", Machine.describe());
      Map<String, Object> params = new LinkedHashMap<>();
      params.put("tlps_per_round", tlps);
      params.put("rounds", rounds);
      params.put("payload_bytes", DataplaneBench.PAYLOAD);
      params.put("transport", transport);
      result.put("parameters", params);
      result.put("figures", figures.stream().map(Figure::toMap).toList());
      result.put("rounds", samples);
      Path json = Path.of(args.get("json", null));
      Files.writeString(json, Json.write(result));
      out.println("wrote " + json);
    }
    return 0;
  }

  /** {@code rack bench controller}: see {@link ControllerBench}. */
  private static int controller(Args args, PrintStream out) throws Exception {
    int events = (int) args.getLong("events", 10_000, 100, 1_000_000);
    Path runDir = Path.of("target", "rack-runs", "bench-controller-" + Instant.now().toString().replace(':', '-'));
    out.printf("rack bench controller: %,d change-log events, H2 file journal in %s%n", events, runDir);
    ControllerBench.Result r = ControllerBench.run(events, runDir, out);
    TakeoverBreakdown t = r.takeover();
    List<Figure> figures = List.of(
        new Figure("controller.replicated_ops_per_s", r.replicatedOpsPerS(), "ops/s", "wall"),
        new Figure("controller.takeover_wall", t.wallTakeoverNs() / 1e9, "s", "wall"),
        new Figure("controller.takeover_events_replayed", t.eventsReplayed(), "events", "count"),
        new Figure("controller.takeover_replay_events_per_s", t.replayRate(), "events/s", "wall"),
        new Figure("controller.recovery_events_per_s", r.recoveryEventsPerS(), "events/s", "wall"),
        new Figure("controller.bare_journal_read_events_per_s", r.bareReadEventsPerS(), "events/s", "wall"),
        new Figure("controller.recovery_ratio", r.recoveryEventsPerS() / r.bareReadEventsPerS(), "controller/bare",
            "wall"),
        new Figure("controller.takeover_total", t.totalNs(), "ns", "model"));
    out.println();
    for (Figure f : figures) {
      out.printf("%-44s %,18.2f  %s (%s)%n", f.name(), f.value(), f.unit(), f.clock());
    }
    if (args.has("json")) {
      Map<String, Object> result = new LinkedHashMap<>();
      result.put("benchmark", "controller");
      result.put("machine", Machine.describe());
      result.put("parameters", Map.of("events", events, "window", ControllerBench.WINDOW));
      result.put("figures", figures.stream().map(Figure::toMap).toList());
      Path json = Path.of(args.get("json", null));
      Files.writeString(json, Json.write(result));
      out.println("wrote " + json);
    }
    return 0;
  }
}
