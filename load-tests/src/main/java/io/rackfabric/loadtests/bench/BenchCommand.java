package io.rackfabric.loadtests.bench;

import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.cli.NodeCommand;
import io.rackfabric.cluster.cli.Args;
import io.rackfabric.cluster.cli.RackCommand;
import io.rackfabric.cluster.cli.UsageException;
import io.rackfabric.cluster.topology.LadonRackGenerator;
import io.rackfabric.cluster.topology.MultiRackGenerator;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.host.controlplane.TakeoverBreakdown;
import io.rackfabric.host.failover.FailoverBreakdown;
import io.rackfabric.host.failover.NotificationMode;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.loadtests.bench.jmh.JmhBench;
import io.rackfabric.loadtests.failover.LinkFailover;
import io.rackfabric.loadtests.report.AtomicFiles;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.report.Json;
import io.rackfabric.loadtests.report.Machine;
import io.rackfabric.loadtests.scale.ComponentCensus;
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

  static final List<String> BENCHMARKS = List.of("dataplane", "controller", "failover", "startup");
  /** The change-log lengths of issue 6: both rows in one run. */
  static final List<Integer> CONTROLLER_EVENTS = List.of(10_000, 100_000);

  @Override
  public String name() {
    return "bench";
  }

  @Override
  public String summary() {
    return "benchmarks against the bare runtime: dataplane [--tlps N] [--rounds R] [--transport T [--tls-dir KEYS]]"
        + " [--json OUT];"
        + " controller [--events N[,M...]] [--json OUT]; failover [--hosts N] [--json OUT];"
        + " startup [--racks N] [--json OUT]; loaded [--hosts N] [--tlps N] [--only single|cross] [--json OUT];"
        + " soak [--tlps N] [--json OUT];"
        + " no name: the first four into one --json;"
        + " jmh [--quick] [--only REGEX] [--json OUT]; compare A.json B.json";
  }

  @Override
  public int run(List<String> argList, PrintStream out, PrintStream err) throws Exception {
    if (!argList.isEmpty() && (argList.get(0).equals("jmh") || argList.get(0).equals("compare"))) {
      List<String> rest = argList.subList(1, argList.size());
      return argList.get(0).equals("jmh") ? JmhBench.run(rest, out) : BenchCompare.run(rest, out);
    }
    Args args = Args.parse(argList,
        Set.of("tlps", "rounds", "transport", "tls-dir", "json", "only", "events", "hosts", "racks"),
        Set.of());
    List<String> what = args.positional();
    if (what.equals(List.of("loaded"))) {
      onlyFlags(args, "loaded", "hosts", "tlps", "only", "json");
      return loaded(args, out);
    }
    if (what.equals(List.of("soak"))) {
      onlyFlags(args, "soak", "tlps", "json");
      return soak(args, out);
    }
    if (what.size() > 1 || (what.size() == 1 && !BENCHMARKS.contains(what.get(0)))) {
      throw new UsageException("unknown benchmark " + what + " (benchmarks: " + String.join(", ", BENCHMARKS)
          + ", loaded, soak, jmh, compare; none: the first four)");
    }
    if (what.isEmpty()) {
      return all(args, out);
    }
    if (what.equals(List.of("controller"))) {
      onlyFlags(args, "controller", "events", "json");
      return controller(args, out);
    }
    if (what.equals(List.of("failover"))) {
      onlyFlags(args, "failover", "hosts", "json");
      return failover(args, out);
    }
    if (what.equals(List.of("startup"))) {
      onlyFlags(args, "startup", "racks", "json");
      return startup(args, out);
    }
    onlyFlags(args, "dataplane", "tlps", "rounds", "transport", "tls-dir", "json", "only");
    long tlps = args.getLong("tlps", 200_000, 1_000, 100_000_000);
    int rounds = (int) args.getLong("rounds", 5, 1, 50);
    String transport = args.get("transport", "aeron-udp");
    // The transport and, with tls-tcp, the rack's stores: checked before anything starts.
    NodeCommand.clusterSettings(ConfigFactory.load(), transport, args.get("tls-dir", null));
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
      DataplaneBench.Runs local = DataplaneBench.singleJvm(tlps, rounds, out);
      add(figures, samples, "single_jvm.", "fabric_hops_per_s", "hops/s", "bare_chain_hops_per_s", "hops/s", local);
      verdicts.add("single-JVM ratio under the kernel >= 0.5 (" + (local.synchronized_().ratio() >= 0.5 ? "met"
          : "NOT met") + ")");
    }
    if (!only.equals("single")) {
      out.println("across JVMs: one link between two node JVMs vs bare Artery sends, same window");
      DataplaneBench.Runs remote = DataplaneBench.crossJvm(tlps, rounds, transport, args.get("tls-dir", null), runDir,
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

    if (args.has("json")) {
      Map<String, Object> result = new LinkedHashMap<>();
      result.put("benchmark", "dataplane");
      result.put("machine", Machine.describe());
      Map<String, Object> params = new LinkedHashMap<>();
      params.put("tlps_per_round", tlps);
      params.put("tlps_per_synchronized_cross_jvm_round", DataplaneBench.synchronizedCrossTlps(tlps));
      params.put("rounds", rounds);
      params.put("payload_bytes", DataplaneBench.PAYLOAD);
      params.put("transport", transport);
      result.put("parameters", params);
      result.put("figures", figures.stream().map(Figure::toMap).toList());
      result.put("rounds", samples);
      Path json = Path.of(args.get("json", null));
      AtomicFiles.writeString(json, Json.write(result));
      out.println("wrote " + json);
    }
    return 0;
  }

  /**
   * A dataplane comparison's figures: under the kernel as {@code prefix + name}, free-running as
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

  /** {@code rack bench controller}: see {@link ControllerBench}; one row per change-log length. */
  private static int controller(Args args, PrintStream out) throws Exception {
    List<Integer> counts = eventCounts(args);
    Map<String, Object> section = controllerSection(counts, out);
    writeJson(args, out, "controller", section);
    return 0;
  }

  /** {@code --events N[,M...]}: each 100..1,000,000; default 10,000 and 100,000. */
  static List<Integer> eventCounts(Args args) throws UsageException {
    if (!args.has("events")) {
      return CONTROLLER_EVENTS;
    }
    String text = args.get("events", "");
    List<Integer> counts = new ArrayList<>();
    for (String part : text.split(",", -1)) {
      long n;
      try {
        n = Long.parseLong(part.strip().replace("_", ""));
      } catch (NumberFormatException e) {
        throw new UsageException("--events=" + text + ": '" + part + "' is not a whole number");
      }
      if (n < 100 || n > 1_000_000) {
        throw new UsageException("--events=" + text + ": " + n + " not in [100,1000000]");
      }
      counts.add((int) n);
    }
    return counts;
  }

  private static Map<String, Object> controllerSection(List<Integer> counts, PrintStream out) throws Exception {
    List<Figure> figures = new ArrayList<>();
    for (int events : counts) {
      Path runDir = Path.of("target", "rack-runs", "bench-controller-" + events + "-"
          + Instant.now().toString().replace(':', '-'));
      out.printf("rack bench controller: %,d change-log events, H2 file journal in %s%n", events, runDir);
      ControllerBench.Result r = ControllerBench.run(events, runDir, out);
      TakeoverBreakdown t = r.takeover();
      String p = "controller." + events + ".";
      figures.add(new Figure(p + "replicated_ops_per_s", r.replicatedOpsPerS(), "ops/s", "wall"));
      figures.add(new Figure(p + "takeover_wall", t.wallTakeoverNs() / 1e9, "s", "wall"));
      figures.add(new Figure(p + "takeover_events_replayed", t.eventsReplayed(), "events", "count"));
      figures.add(new Figure(p + "takeover_replay_events_per_s", t.replayRate(), "events/s", "wall"));
      figures.add(new Figure(p + "recovery_events_per_s", r.recoveryEventsPerS(), "events/s", "wall"));
      figures.add(new Figure(p + "bare_journal_read_events_per_s", r.bareReadEventsPerS(), "events/s", "wall"));
      figures.add(new Figure(p + "recovery_ratio", r.recoveryEventsPerS() / r.bareReadEventsPerS(),
          "controller/bare", "wall"));
      figures.add(new Figure(p + "takeover_replay_ratio", t.replayRate() / r.bareReadEventsPerS(),
          "controller/bare", "wall"));
      figures.add(new Figure(p + "takeover_total", t.totalNs(), "ns", "model"));
    }
    return section(Map.of("events", counts, "window", ControllerBench.WINDOW), figures, out);
  }

  /** Prints a benchmark's figures and returns its JSON section: parameters, figures, and the list for the totals. */
  private static Map<String, Object> section(Map<String, Object> parameters, List<Figure> figures, PrintStream out) {
    printFigures(out, figures);
    Map<String, Object> section = new LinkedHashMap<>();
    section.put("parameters", parameters);
    section.put("figures", figures.stream().map(Figure::toMap).toList());
    section.put("list", figures);
    return section;
  }

  /**
   * {@code rack bench loaded}: see {@link LoadedRackBench}; in one JVM ({@code --only single}), on
   * three ({@code --only cross}), or both.
   */
  private static int loaded(Args args, PrintStream out) throws Exception {
    int hosts = (int) args.getLong("hosts", 48, 2, LadonAddressesLimit.MAX);
    long tlps = args.getLong("tlps", 1_000_000, 1_000, 100_000_000);
    String only = args.get("only", "all");
    if (!only.equals("all") && !only.equals("single") && !only.equals("cross")) {
      throw new UsageException("--only=" + only + " not in {single, cross}");
    }
    List<Figure> figures = new ArrayList<>();
    List<String> verdicts = new ArrayList<>();
    for (boolean three : List.of(false, true)) {
      if (only.equals(three ? "single" : "cross")) {
        continue;
      }
      Path runDir = Path.of("target", "rack-runs", "bench-loaded-" + (three ? "three-jvms-" : "one-jvm-")
          + Instant.now().toString().replace(':', '-'));
      out.printf("rack bench loaded: a Ladon rack of %d CHs, each writing into the next, %,d TLPs in all, %s%n",
          hosts, tlps, three ? "on three JVMs" : "in one JVM");
      LoadedRackBench.Result r = LoadedRackBench.run(hosts, tlps, three, 3, runDir, out);
      figures.addAll(r.figures());
      if (!r.passed()) {
        verdicts.add((three ? "three JVMs" : "one JVM") + ": an invariant FAILED (see the run above)");
      }
      if (!three) {
        double ratio = r.figures().stream().filter(f -> f.name().endsWith(".ratio")).findFirst()
            .map(Figure::value).orElse(Double.NaN);
        verdicts.add("one-JVM loaded rack >= 0.3 of the bare chain's hop rate (" + (ratio >= 0.3 ? "met" : "NOT met")
            + ")");
      }
    }
    Map<String, Object> section = section(Map.of("hosts", hosts, "tlps", tlps, "size_bytes", 64,
        "interval_ns", LoadedRackBench.INTERVAL_NS), figures, out);
    out.println("targets: " + String.join(", ", verdicts));
    writeJson(args, out, "loaded", section);
    return 0;
  }

  /** {@code rack bench soak}: see {@link SoakBench}. */
  private static int soak(Args args, PrintStream out) throws Exception {
    long tlps = args.getLong("tlps", 100_000_000, 100_000, 10_000_000_000L);
    Path runDir = Path.of("target", "rack-runs", "bench-soak-" + Instant.now().toString().replace(':', '-'));
    SoakBench.Result r = SoakBench.run(tlps, runDir, out);
    writeJson(args, out, "soak", section(Map.of("tlps", tlps, "size_bytes", 64, "interval_ns", SoakBench.INTERVAL_NS,
        "warm_up_fraction", SoakBench.WARM_UP, "samples", r.samples().stream().map(x -> List.of(x.wallS(), x.tlps(),
            x.heapBytes())).toList()), r.figures(), out));
    return 0;
  }

  /** {@code rack bench failover}: see {@link #failoverSection}. */
  private static int failover(Args args, PrintStream out) throws Exception {
    int hosts = (int) args.getLong("hosts", 48, 2, LadonAddressesLimit.MAX);
    writeJson(args, out, "failover", failoverSection(hosts, out));
    return 0;
  }

  /**
   * Link fail-over on a generated Ladon rack of {@code hosts} CHs in one JVM ({@link LinkFailover}),
   * twice: CH1's primary cable fails and the MH notifies every CH one by one; then every CH's
   * primary cable fails at once, each CH reports its own and the MH runs a round per report. Wall
   * time from the fault to the last round's completion, beside the model-time figures.
   */
  private static Map<String, Object> failoverSection(int hosts, PrintStream out) throws Exception {
    GlobalMemoryLayout layout = GlobalMemoryLayout.create(32L << 30, hosts, hosts <= 29 ? 1L << 40 : 2L << 40);
    Topology rack = LadonRackGenerator.generate(layout, LadonRackGenerator.Placement.SINGLE_NODE);
    List<Figure> figures = new ArrayList<>();
    out.printf("rack bench failover: %s, CH1's primary link fails, %d CHs notified one by one%n", rack.name(), hosts);
    LinkFailover.Result one = LinkFailover.run(rack, LinkFailover.Fault.CH_LINK, 1, NotificationMode.UNICAST,
        ConfigFactory.empty(), out);
    FailoverBreakdown b = one.breakdown();
    String p = "failover." + hosts + "ch.one_link.";
    figures.add(new Figure(p + "wall", one.wallNanos() / 1e9, "s", "wall"));
    figures.add(new Figure(p + "detection", b.detectionNs(), "ns", "model"));
    figures.add(new Figure(p + "determination", b.determinationNs(), "ns", "model"));
    figures.add(new Figure(p + "notification", b.notificationNs(), "ns", "model"));
    figures.add(new Figure(p + "total", b.totalNs(), "ns", "model"));
    figures.add(new Figure(p + "hosts_acknowledged", b.hosts().size(), "hosts", "count"));
    out.printf("rack bench failover: %s, every CH's primary link fails at once%n", rack.name());
    LinkFailover.Result every = LinkFailover.run(rack, LinkFailover.Fault.EVERY_CH_LINK, 1, NotificationMode.UNICAST,
        ConfigFactory.empty(), out);
    p = "failover." + hosts + "ch.every_link.";
    figures.add(new Figure(p + "wall", every.wallNanos() / 1e9, "s", "wall"));
    figures.add(new Figure(p + "rounds", every.rounds(), "rounds", "count"));
    figures.add(new Figure(p + "total", every.lastCompletedAt() - every.breakdown().faultAt(), "ns", "model"));
    figures.add(new Figure(p + "ch1_detection", every.breakdown().detectionNs(), "ns", "model"));
    return section(Map.of("hosts", hosts, "faults", "ch1-rp.pri link down; every chI-rp.pri link down",
        "notification", "unicast"), figures, out);
  }

  /** {@code rack bench startup}: see {@link StartupBench}. */
  private static int startup(Args args, PrintStream out) throws Exception {
    int racks = (int) args.getLong("racks", 21, 1, MultiRackGenerator.MAX_RACKS);
    writeJson(args, out, "startup", startupSection(racks, out));
    return 0;
  }

  private static Map<String, Object> startupSection(int racks, PrintStream out) throws Exception {
    Path runDir = Path.of("target", "rack-runs", "bench-startup-" + Instant.now().toString().replace(':', '-'));
    List<Figure> figures = new ArrayList<>();
    for (StartupBench.Rack rack : StartupBench.standardRacks(racks)) {
      out.printf("rack bench startup: %s (%,d components)%n", rack.name(), ComponentCensus.total(rack.topology()));
      StartupBench.Result r = StartupBench.run(rack, runDir, out);
      String p = "startup." + r.name() + ".";
      figures.add(new Figure(p + "wall", r.startupNanos() / 1e9, "s", "wall"));
      figures.add(new Figure(p + "components", r.components(), "actors", "count"));
      figures.add(new Figure(p + "compute_hosts", r.computeHosts(), "hosts", "count"));
      if (r.heapBytes() >= 0) {
        figures.add(new Figure(p + "heap_per_component", (double) r.heapBytes() / r.components(), "bytes", "wall"));
      }
      figures.add(new Figure(p + "bare_spawn_wall", r.bareNanos() / 1e9, "s", "wall"));
      figures.add(new Figure(p + "ratio", r.ratio(), "rack/bare", "wall"));
    }
    return section(Map.of("racks", racks, "multirack_link_timers", StartupBench.SCALE_TIMERS), figures, out);
  }

  /**
   * {@code rack bench} with no name: dataplane, controller (10,000 and 100,000 events), failover
   * (48 CHs) and startup, one JSON with a section per benchmark and every figure.
   */
  private static int all(Args args, PrintStream out) throws Exception {
    onlyFlags(args, "(all)", "tlps", "rounds", "transport", "tls-dir", "events", "hosts", "racks", "json");
    // Every value checked before the first benchmark runs for minutes.
    List<Integer> events = eventCounts(args);
    int hosts = (int) args.getLong("hosts", 48, 2, LadonAddressesLimit.MAX);
    int racks = (int) args.getLong("racks", 21, 1, MultiRackGenerator.MAX_RACKS);
    args.getLong("tlps", 200_000, 1_000, 100_000_000);
    args.getLong("rounds", 5, 1, 50);
    String transport = args.get("transport", "aeron-udp");
    // The transport and, with tls-tcp, the rack's stores: checked before anything starts.
    NodeCommand.clusterSettings(ConfigFactory.load(), transport, args.get("tls-dir", null));
    Map<String, Object> sections = new LinkedHashMap<>();
    List<Object> every = new ArrayList<>();
    Path dataplaneJson = Files.createTempFile("bench-dataplane", ".json");
    List<String> dataplaneArgs = new ArrayList<>(List.of("dataplane", "--json", dataplaneJson.toString()));
    for (String k : List.of("tlps", "rounds", "transport", "tls-dir")) {
      if (args.has(k)) {
        dataplaneArgs.addAll(List.of("--" + k, args.get(k, null)));
      }
    }
    new BenchCommand().run(dataplaneArgs, out, out);
    // dataplane writes its own result file (its code stays as it is); it goes in whole.
    sections.put("dataplane", Json.read(dataplaneJson));
    Files.deleteIfExists(dataplaneJson);
    List<Map<String, Object>> parts = List.of(
        controllerSection(events, out),
        failoverSection(hosts, out),
        startupSection(racks, out));
    List<String> names = List.of("controller", "failover", "startup");
    for (int i = 0; i < parts.size(); i++) {
      Map<String, Object> part = new LinkedHashMap<>(parts.get(i));
      Object list = part.remove("list");
      every.addAll(((List<?>) list).stream().map(f -> ((Figure) f).toMap()).toList());
      sections.put(names.get(i), part);
    }
    if (args.has("json")) {
      Map<String, Object> result = new LinkedHashMap<>();
      result.put("benchmark", "all");
      result.put("machine", Machine.describe());
      result.put("figures", every);
      result.put("sections", sections);
      Path json = Path.of(args.get("json", null));
      AtomicFiles.writeString(json, Json.write(result));
      out.println("wrote " + json);
    }
    return 0;
  }

  /** A flag of another benchmark is a mistake worth naming, not something to ignore. */
  private static void onlyFlags(Args args, String benchmark, String... allowed) throws UsageException {
    List<String> ok = List.of(allowed);
    for (String flag : List.of("tlps", "rounds", "transport", "tls-dir", "only", "events", "hosts", "racks", "json")) {
      if (args.has(flag) && !ok.contains(flag)) {
        throw new UsageException("--" + flag + " does not apply to 'bench " + benchmark + "' (its flags: --"
            + String.join(", --", ok) + ")");
      }
    }
  }

  private static void printFigures(PrintStream out, List<Figure> figures) {
    out.println();
    for (Figure f : figures) {
      out.printf("%-48s %,18.2f  %s (%s)%n", f.name(), f.value(), f.unit(), f.clock());
    }
  }

  private static void writeJson(Args args, PrintStream out, String benchmark, Map<String, Object> section)
      throws Exception {
    if (!args.has("json")) {
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
    Path json = Path.of(args.get("json", null));
    AtomicFiles.writeString(json, Json.write(result));
    out.println("wrote " + json);
  }

  /** The most CHs a generated rack with fail-over can have: P/L - 3 at L = 32GiB, P = 2TiB. */
  private static final class LadonAddressesLimit {
    static final int MAX = (int) ((2L << 40) / (32L << 30)) - 3;
  }
}
