package io.rackfabric.loadtests.bench;

import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.topology.LadonRackGenerator;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.host.controlplane.TakeoverBreakdown;
import io.rackfabric.host.failover.FailoverBreakdown;
import io.rackfabric.host.failover.NotificationMode;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.loadtests.failover.LinkFailover;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scale.ComponentCensus;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The benchmarks of {@code rack bench} besides the data plane, each run with values its caller
 * checked: it prints its figures and returns its JSON section ({@link BenchFigures#section}), or,
 * as a whole command, writes its result file too.
 */
public final class BenchSections {

  /** The most CHs a generated rack with fail-over can have: P/L - 3 at L = 32GiB, P = 2TiB. */
  public static final int MAX_FAILOVER_HOSTS = (int) ((2L << 40) / (32L << 30)) - 3;

  private BenchSections() {}

  /** {@code rack bench controller}: see {@link ControllerBench}; one row per change-log length. */
  public static int controller(List<Integer> counts, Path json, PrintStream out) throws Exception {
    BenchFigures.write(json, "controller", controllerSection(counts, out), out);
    return 0;
  }

  static Map<String, Object> controllerSection(List<Integer> counts, PrintStream out) throws Exception {
    List<Figure> figures = new ArrayList<>();
    List<String> verdicts = new ArrayList<>();
    for (int events : counts) {
      Path runDir = BenchFigures.runDir("bench-controller-" + events);
      out.printf("rack bench controller: %,d change-log events, H2 file journal in %s%n", events, runDir);
      ControllerBench.Result r = ControllerBench.run(events, runDir, out);
      TakeoverBreakdown t = r.takeover();
      String p = "controller." + events + ".";
      double replicatedRatio = r.replicatedOpsPerS() / r.bareWriteEventsPerS();
      double replayRatio = t.replayRate() / r.bareReadEventsPerS();
      figures.add(new Figure(p + "replicated_ops_per_s", r.replicatedOpsPerS(), "ops/s", "wall"));
      figures.add(new Figure(p + "bare_journal_write_events_per_s", r.bareWriteEventsPerS(), "events/s", "wall"));
      figures.add(new Figure(p + "replicated_ratio", replicatedRatio, "controller/bare", "wall"));
      figures.add(new Figure(p + "takeover_wall", t.wallTakeoverNs() / 1e9, "s", "wall"));
      figures.add(new Figure(p + "takeover_events_replayed", t.eventsReplayed(), "events", "count"));
      figures.add(new Figure(p + "takeover_events_read_back", t.eventsReadBack(), "events", "count"));
      boolean replayed = t.eventsReadBack() > 0; // else resumed from the backup's state: no replay to time
      if (replayed) {
        figures.add(new Figure(p + "takeover_replay_events_per_s", t.replayRate(), "events/s", "wall"));
      }
      figures.add(new Figure(p + "rejoin_events_transferred", r.rejoin().transferred(), "events", "count"));
      figures.add(new Figure(p + "rejoin_transfer_wall", r.rejoin().wallS(), "s", "wall"));
      figures.add(new Figure(p + "rejoin_transfer_events_per_s", r.rejoin().eventsPerS(), "events/s", "wall"));
      figures.add(new Figure(p + "recovery_events_per_s", r.recoveryEventsPerS(), "events/s", "wall"));
      figures.add(new Figure(p + "bare_journal_read_events_per_s", r.bareReadEventsPerS(), "events/s", "wall"));
      figures.add(new Figure(p + "recovery_ratio", r.recoveryEventsPerS() / r.bareReadEventsPerS(),
          "controller/bare", "wall"));
      if (replayed) {
        figures.add(new Figure(p + "takeover_replay_ratio", replayRatio, "controller/bare", "wall"));
      }
      figures.add(new Figure(p + "takeover_total", t.totalNs(), "ns", "model"));
      verdicts.add(ControllerBench.verdicts(events, replicatedRatio, replayRatio, t.eventsReadBack(),
          t.wallTakeoverNs() / 1e9));
    }
    Map<String, Object> section = BenchFigures.section(Map.of("events", counts, "window", ControllerBench.WINDOW),
        figures, out);
    verdicts.forEach(v -> out.println("targets: " + v));
    return section;
  }

  /** {@code rack bench failover}: see {@link #failoverSection}. */
  public static int failover(int hosts, Path json, PrintStream out) throws Exception {
    BenchFigures.write(json, "failover", failoverSection(hosts, out), out);
    return 0;
  }

  /**
   * Link fail-over on a generated Ladon rack of {@code hosts} CHs in one JVM ({@link LinkFailover}),
   * twice: CH1's primary cable fails and the MH notifies every CH one by one; then every CH's
   * primary cable fails at once, each CH reports its own and the MH runs a round per report. Wall
   * time from the fault to the last round's completion, beside the model-time figures.
   */
  static Map<String, Object> failoverSection(int hosts, PrintStream out) throws Exception {
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
    return BenchFigures.section(Map.of("hosts", hosts, "faults", "ch1-rp.pri link down; every chI-rp.pri link down",
        "notification", "unicast"), figures, out);
  }

  /** {@code rack bench startup}: see {@link StartupBench}. */
  public static int startup(int racks, Path json, PrintStream out) throws Exception {
    BenchFigures.write(json, "startup", startupSection(racks, out), out);
    return 0;
  }

  static Map<String, Object> startupSection(int racks, PrintStream out) throws Exception {
    Path runDir = BenchFigures.runDir("bench-startup");
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
    return BenchFigures.section(Map.of("racks", racks, "multirack_link_timers", StartupBench.SCALE_TIMERS), figures,
        out);
  }

  /** {@code rack bench discovery}: see {@link DiscoveryBench}. */
  public static int discovery(int racks, int rounds, boolean overFabric, Path json, PrintStream out) throws Exception {
    List<Figure> figures = new ArrayList<>();
    for (DiscoveryBench.Result r : DiscoveryBench.run(StartupBench.standardRacks(racks), rounds)) {
      out.printf("rack bench discovery: %s, %,d devices, %,d read requests%n", r.name(), r.devices(), r.readRequests());
      figures.addAll(r.figures());
    }
    boolean passed = true;
    if (overFabric) {
      Path runDir = BenchFigures.runDir("bench-discovery");
      for (FabricDiscoveryBench.Result r : FabricDiscoveryBench.runAll(FabricDiscoveryBench.standardRacks(racks),
          runDir, out)) {
        out.printf("rack bench discovery: %s over the fabric: %,d devices, %,d read requests, %,d ns of model time,"
            + " %.1f s of wall time%s%n", r.name(), r.devices(), r.readRequests(), r.discoveryNs(), r.runWallS(),
            r.passed() ? "" : "; FAILED: " + r.detail());
        figures.addAll(r.figures());
        passed &= r.passed();
      }
    }
    BenchFigures.write(json, "discovery", BenchFigures.section(Map.of("racks", racks, "rounds", rounds,
        "structural", true, "over_fabric", overFabric), figures, out), out);
    return passed ? 0 : 1;
  }

  /** {@code rack bench lending}: see {@link LendingBench}. */
  public static int lending(int rounds, Path json, PrintStream out) throws Exception {
    BenchFigures.write(json, "lending", lendingSection(rounds, out), out);
    return 0;
  }

  static Map<String, Object> lendingSection(int rounds, PrintStream out) throws Exception {
    Path runDir = BenchFigures.runDir("bench-lending");
    out.printf("rack bench lending: borrows and returns through the controller, H2 file journal in %s%n", runDir);
    LendingBench.Loans loans = LendingBench.loans(rounds, runDir.resolve("journal"), out);
    out.printf("rack bench lending: the %s sweep in this JVM%n", LendingBench.SWEEP_SCENARIO);
    LendingBench.Sweep sweep = LendingBench.sweep(LendingBench.bundledSweep(), runDir.resolve("sweep"), out);
    List<Figure> figures = List.of(
        new Figure("lending.borrows_returns_per_s", loans.opsPerS(), "ops/s", "wall"),
        new Figure("lending.borrows_returns", loans.operations(), "ops", "count"),
        new Figure("lending.sweep_wall_s", sweep.wallS(), "s", "wall"),
        new Figure("lending.sweep_copies", sweep.points(), "sizes x directions", "count"));
    Map<String, Object> section = BenchFigures.section(Map.of("rounds", rounds, "replication", "none",
        "sweep", LendingBench.SWEEP_SCENARIO, "sweep_target_s", LendingBench.SWEEP_TARGET_S), figures, out);
    int cores = Runtime.getRuntime().availableProcessors();
    out.printf("targets: the %s sweep under a minute of wall time on two cores (%s: %.1f s on %d cores)%n",
        LendingBench.SWEEP_SCENARIO, sweep.wallS() < LendingBench.SWEEP_TARGET_S ? "met" : "NOT met", sweep.wallS(),
        cores);
    return section;
  }

  /**
   * {@code rack bench loaded}: see {@link LoadedRackBench}; in one JVM ({@code single}), on three
   * ({@code cross}), or both.
   */
  public static int loaded(int hosts, long tlps, boolean single, boolean cross, Path json, PrintStream out)
      throws Exception {
    List<Figure> figures = new ArrayList<>();
    List<String> verdicts = new ArrayList<>();
    for (boolean three : List.of(false, true)) {
      if (!(three ? cross : single)) {
        continue;
      }
      Path runDir = BenchFigures.runDir("bench-loaded-" + (three ? "three-jvms" : "one-jvm"));
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
    Map<String, Object> section = BenchFigures.section(Map.of("hosts", hosts, "tlps", tlps, "size_bytes", 64,
        "interval_ns", LoadedRackBench.INTERVAL_NS), figures, out);
    out.println("targets: " + String.join(", ", verdicts));
    BenchFigures.write(json, "loaded", section, out);
    return 0;
  }

  /** {@code rack bench soak}: see {@link SoakBench}. */
  public static int soak(long tlps, Path json, PrintStream out) throws Exception {
    SoakBench.Result r = SoakBench.run(tlps, BenchFigures.runDir("bench-soak"), out);
    BenchFigures.write(json, "soak", BenchFigures.section(Map.of("tlps", tlps, "size_bytes", 64, "interval_ns",
        SoakBench.INTERVAL_NS, "warm_up_fraction", SoakBench.WARM_UP, "samples", r.samples().stream()
            .map(x -> List.of(x.wallS(), x.tlps(), x.heapBytes())).toList()), r.figures(), out), out);
    return 0;
  }
}
