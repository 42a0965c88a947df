package io.rackfabric.loadtests.demo;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.loadtests.scenario.language.Network;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.cluster.topology.LadonRackGenerator;
import io.rackfabric.cluster.topology.RouteExplainer;
import io.rackfabric.cluster.topology.RouteExplanation;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyLoader;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.endpoint.TrafficPlan;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.stats.Latencies;
import io.rackfabric.host.failover.NotificationMode;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.Plane;
import io.rackfabric.loadtests.failover.FailoverReport;
import io.rackfabric.loadtests.failover.LinkFailover;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.loadtests.harness.ClusterRun;
import io.rackfabric.loadtests.harness.RunLogs;
import io.rackfabric.loadtests.harness.Interruption;
import io.rackfabric.loadtests.report.AtomicFiles;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.report.Json;
import io.rackfabric.loadtests.report.Machine;
import io.rackfabric.loadtests.scenario.BaselineRun;
import io.rackfabric.loadtests.scenario.ScenarioKinds;
import io.rackfabric.loadtests.scenario.ScenarioRunner;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * {@code rack demo}'s run: the bundled demo rack on three node JVMs over {@code transport}, with
 * traffic that crosses JVMs, switches and NTBs; then a data-plane fail-over and an MMH/BMH
 * take-over. This process is the cluster's seed and drives and measures the run without hosting
 * any component; every node JVM it starts is stopped again, also on failure. Ctrl-C or SIGTERM
 * says "interrupted" and writes {@code json} unfinished ({@code "finished": false,
 * "interrupted": true}) with the TLPs delivered so far.
 *
 * @param tlps posted writes per flow
 * @param size each write's payload, in bytes
 * @param interval model time between a flow's writes, in nanoseconds
 * @param tlsDir with tls-tcp: the rack's keys folder, or null for the configured stores
 * @param sharedMediaDriver with aeron-udp: one media driver for every JVM rather than one in each
 * @param json the result file, or null
 */
public record DemoRun(long tlps, int size, long interval, String transport, String tlsDir, boolean sharedMediaDriver,
    Path json) {

  /** One stream of posted writes and the endpoint that receives it. */
  record Flow(String from, long address, String sink, String path) {}

  /** Runs the demo; 0 when every part kept its invariants, else 1. */
  public int run(PrintStream out, PrintStream err) throws Exception {
    Topology topology = TopologyLoader.load("demo");
    List<Flow> flows = checkedFlows(topology, out);
    Path runDir = Path.of("target", "rack-runs", "demo-" + Instant.now().toString().replace(':', '-'));
    String driver = !transport.equals("aeron-udp") ? "no" : sharedMediaDriver ? "shared" : "embedded";
    out.printf("rack demo: %d node JVMs over %s (%s media driver), node logs in %s%n", topology.nodes().size(),
        transport, driver, runDir.resolve(RunLogs.DIR));
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("topology", "demo");
    params.put("transport", transport);
    params.put("tlps_per_flow", tlps);
    params.put("payload_bytes", size);
    params.put("interval_ns_model", interval);
    params.put("flows", flows.stream().map(Flow::path).toList());
    try (Interruption interruption = Interruption.install("rack demo", err); RunLogs logs = RunLogs.open(runDir)) {
      AtomicLong delivered = new AtomicLong(-1);
      Interruption.Partial partial = interruption.onInterrupt(() -> {
        if (json != null) {
          Map<String, Object> result = result(params, false);
          result.put("measured_so_far", delivered.get() < 0 ? Map.of() : Map.of("tlps_delivered", delivered.get()));
          AtomicFiles.writeString(json, Json.write(result));
          err.println("rack demo: unfinished result in " + json);
        }
      });
      int traffic;
      try (ClusterRun run = ClusterRun.start(topology, "demo", transport, sharedMediaDriver, runDir, out,
          Map.of(), Network.LOOPBACK, false, tlsDir)) {
        Map<String, ActorRef<MemoryEndpoint.Command>> eps = new HashMap<>();
        topology.endpoints().forEach(e -> eps.put(e.id(), run.endpoint(e.id())));
        traffic = runTraffic(run.driver(), eps, flows, tlps, size, interval, params, json, partial, delivered, out);
      }
      int dataPlane = failOver(out);
      int takeOver = takeOver(runDir.resolveSibling(runDir.getFileName() + "-takeover"), out);
      out.println(logs.summary() + "; the take-over run's node JVMs' in " + runDir.getFileName() + "-takeover/"
          + RunLogs.DIR);
      return Math.max(Math.max(traffic, dataPlane), takeOver);
    }
  }

  /** The JSON result's frame: run, machine, parameters, whether it ran to its end. */
  private static Map<String, Object> result(Map<String, Object> params, boolean finished) {
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("run", "demo");
    result.put("finished", finished);
    result.put("interrupted", !finished);
    result.put("machine", Machine.describe());
    result.put("parameters", params);
    return result;
  }

  /**
   * The third part: Ladon sections 4.3 and 5.2, the bundled mmh-takeover scenario: the MMH's JVM is
   * killed mid-traffic on the Ladon testbed rack (five JVMs) and the BMH takes over; then the same
   * with the scenario's baseline (the whole system restarted), the two side by side.
   */
  private static int takeOver(Path runDir, PrintStream out) throws Exception {
    out.println();
    out.println("Control-plane take-over (Ladon section 4.3, Table 1): the Ladon testbed rack, one JVM per node;"
        + " the MMH's JVM is killed (SIGKILL) during traffic");
    var kinds = ScenarioKinds.standard();
    Scenario scenario = ScenarioLoader.loadBundled("mmh-takeover", kinds, ScenarioOptions.NONE);
    ScenarioRunner runner = new ScenarioRunner(kinds);
    PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
    ScenarioRunner.Outcome o = runner.run(scenario, runDir, quiet);
    BaselineRun baseline = null;
    if (scenario.baseline() != null) {
      out.println("... and once more without Ladon's mechanism (control-plane.baseline = "
          + BaselineRun.text(scenario.baseline()) + "), to show the data plane's outage");
      baseline = BaselineRun.run(runner, scenario, runDir, quiet);
    }
    if (baseline != null) {
      out.print(baseline.table(o.figures()).indent(2));
    }
    if (baseline == null || baseline.rows(o.figures()).isEmpty()) {
      // No side-by-side table: this run's own take-over and stream figures.
      for (Figure f : o.figures()) {
        boolean stream = f.name().startsWith("nic.") && (f.name().endsWith(".received")
            || f.name().endsWith(".lost") || f.name().endsWith(".interarrival_max"));
        if (f.name().startsWith("takeover") || stream) {
          out.printf("  %-40s %18s  %s (%s)%n", f.name(), Figure.text(f.value()), f.unit(), f.clock());
        }
      }
    }
    for (ScenarioRunner.Checked c : o.invariants()) {
      out.printf("  %s  %s: %s%n", c.verdict().pass() ? "pass" : "FAIL", c.spec().label(), c.verdict().detail());
    }
    out.println("journals: rack replay --journal " + runDir.resolve("data")
        + (baseline == null ? "" : " (the baseline's: " + baseline.runDir().resolve("data") + ")"));
    return o.passed() && (baseline == null || !baseline.failed()) ? 0 : 1;
  }

  /**
   * The second half: Ladon section 5.3's data-plane fail-over in a generated Ladon rack of 8 compute
   * hosts (in this JVM; `rack failover` has the options), notified one by one and by multicast.
   */
  private static int failOver(PrintStream out) throws Exception {
    out.println();
    out.println("Data-plane fail-over (Ladon section 5.3): a Ladon rack of 8 compute hosts in this JVM; CH1's primary link fails");
    Topology rack = LadonRackGenerator.generate(GlobalMemoryLayout.paper(8), LadonRackGenerator.Placement.SINGLE_NODE);
    PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
    LinkFailover.Result unicast = LinkFailover.run(rack, 1, NotificationMode.UNICAST, ConfigFactory.empty(), quiet);
    out.print(FailoverReport.render(unicast.breakdown()));
    LinkFailover.Result multicast = LinkFailover.run(rack, 1, NotificationMode.MULTICAST, ConfigFactory.empty(), quiet);
    out.printf("With one multicast write instead (the saving Ladon section 5.3 predicts): notification and processing"
        + " %.2f us, total %.2f us (model time)%n", multicast.breakdown().notificationNs() / 1000.0,
        multicast.breakdown().totalNs() / 1000.0);
    boolean switched = unicast.routes().entrySet().stream().allMatch(e -> e.getValue().get(1) == Plane.SECONDARY);
    out.println(switched ? "invariants: every CH now reaches CH1 through its secondary range"
        : "INVARIANT BROKEN: some CH still reaches CH1 through its primary range: " + unicast.routes());
    return switched ? 0 : 1;
  }

  /** The demo's flows, each checked against the topology with the route explainer first. */
  private static List<Flow> checkedFlows(Topology topology, PrintStream out) {
    List<Flow> candidates = List.of(
        new Flow("ch1", 0x3_0000_0000L, "ch2", null),   // two NTBs: ch1 -> tor -> ch2
        new Flow("ch2", 0x1_8000_0000L, "mem", null),   // one NTB, two switches, two JVM crossings
        new Flow("mh", 0x1_0000_0000L, "ch1", null));   // the MH into a CH's memory
    RouteExplainer explainer = new RouteExplainer(topology);
    List<Flow> flows = new ArrayList<>();
    out.println("flows (paths from rack route):");
    for (Flow f : candidates) {
      RouteExplanation e = explainer.explain(f.from(), f.address(), false);
      if (!e.delivered() || !f.sink().equals(e.target())) {
        throw new IllegalStateException("demo flow " + f.from() + " -> " + f.sink() + " does not route there: "
            + e.outcome().kind() + " at " + e.target() + " (" + e.outcome().reason() + ")");
      }
      String path = e.path();
      out.println("  " + path);
      flows.add(new Flow(f.from(), f.address(), f.sink(), path));
    }
    return flows;
  }

  /**
   * A percentile from the 2-digit histogram, clamped to the exact minimum and maximum: the true
   * value lies in the histogram's bucket and within [min, max].
   */
  static long percentile(Histogram h, double p, long min, long max) {
    return Math.max(min, Math.min(max, h.getValueAtPercentile(p)));
  }

  private static int runTraffic(ActorSystem<Void> driver, Map<String, ActorRef<MemoryEndpoint.Command>> eps,
      List<Flow> flows, long tlps, int size, long interval, Map<String, Object> params, Path json,
      Interruption.Partial partial, AtomicLong deliveredSoFar, PrintStream out) throws Exception {
    Map<String, Long> before = new HashMap<>();
    List<CompletableFuture<MemoryEndpoint.WritesReached>> reached = new ArrayList<>();
    for (Flow f : flows) {
      long b = Asks.stats(driver, eps.get(f.sink())).uniqueWrites();
      before.put(f.sink(), b);
      reached.add(Asks.<MemoryEndpoint.Command, MemoryEndpoint.WritesReached>askAsync(driver, eps.get(f.sink()),
          r -> new MemoryEndpoint.AwaitWrites(b + tlps, r), Duration.ofHours(1)));
    }
    out.printf("traffic: %,d posted writes of %d bytes per flow, one every %d ns of model time%n", tlps, size, interval);
    long start = System.nanoTime();
    List<CompletableFuture<MemoryEndpoint.TrafficDone>> done = new ArrayList<>();
    for (Flow f : flows) {
      TrafficPlan plan = new TrafficPlan(f.address(), 1L << 20, size, tlps, interval, false, true);
      done.add(Asks.<MemoryEndpoint.Command, MemoryEndpoint.TrafficDone>askAsync(driver, eps.get(f.from()),
          r -> new MemoryEndpoint.StartTraffic(plan, r), Duration.ofHours(1)));
    }
    long expected = tlps * flows.size();
    CompletableFuture<Void> all = CompletableFuture.allOf(reached.toArray(CompletableFuture[]::new));
    long lastDelivered = -1;
    long lastChange = System.nanoTime();
    long end;
    while (true) {
      try {
        all.get(500, TimeUnit.MILLISECONDS);
        end = System.nanoTime();
        break;
      } catch (java.util.concurrent.TimeoutException stillRunning) {
        long delivered = 0;
        for (Flow f : flows) {
          delivered += Asks.stats(driver, eps.get(f.sink())).uniqueWrites() - before.get(f.sink());
        }
        deliveredSoFar.set(delivered);
        out.printf("  %,d of %,d delivered (%.0f%%)%n", delivered, expected, 100.0 * delivered / expected);
        if (delivered != lastDelivered) {
          lastDelivered = delivered;
          lastChange = System.nanoTime();
        } else if (done.stream().allMatch(CompletableFuture::isDone) && System.nanoTime() - lastChange > 3_000_000_000L) {
          end = lastChange; // everything was sent and nothing moved for 3 s: the rest is lost
          break;
        }
      }
    }
    double wallSeconds = Math.max(1e-3, (end - start) / 1e9);
    Map<String, EndpointStats> sinks = new LinkedHashMap<>();
    long delivered = 0;
    for (Flow f : flows) {
      EndpointStats s = Asks.stats(driver, eps.get(f.sink()));
      sinks.put(f.sink(), s);
      delivered += s.uniqueWrites() - before.get(f.sink());
    }
    long sentTotal = 0;
    for (CompletableFuture<MemoryEndpoint.TrafficDone> d : done) {
      sentTotal += d.get(10, TimeUnit.SECONDS).sent();
    }
    long duplicates = 0;
    long reordered = 0;
    Histogram latency = Latencies.newHistogram();
    long maxLatency = 0;
    long minLatency = Long.MAX_VALUE;
    for (EndpointStats s : sinks.values()) {
      maxLatency = Math.max(maxLatency, s.maxLatencyNs());
      minLatency = Math.min(minLatency, s.minLatencyNs());
      duplicates += s.duplicateWrites();
      reordered += s.reorderedWrites();
      latency.add(Latencies.decode(s.latencyHistogram()));
    }
    long lost = sentTotal - delivered;
    List<Figure> figures = List.of(
        new Figure("tlps_sent", sentTotal, "TLPs", "count"),
        new Figure("tlps_delivered", delivered, "TLPs", "count"),
        new Figure("tlps_lost", lost, "TLPs", "count"),
        new Figure("tlps_duplicated", duplicates, "TLPs", "count"),
        new Figure("tlps_reordered", reordered, "TLPs", "count"),
        new Figure("one_way_latency_p50", percentile(latency, 50, minLatency, maxLatency), "ns", "model"),
        new Figure("one_way_latency_p90", percentile(latency, 90, minLatency, maxLatency), "ns", "model"),
        new Figure("one_way_latency_p99", percentile(latency, 99, minLatency, maxLatency), "ns", "model"),
        new Figure("one_way_latency_max", maxLatency, "ns", "model"),
        new Figure("throughput", delivered / wallSeconds, "TLPs/s", "wall"),
        new Figure("traffic_duration", wallSeconds, "s", "wall"));
    out.println();
    out.printf("%-24s %16s  %-7s %s%n", "figure", "value", "unit", "clock");
    for (Figure f : figures) {
      out.printf("%-24s %,16.1f  %-7s %s%n", f.name(), f.value(), f.unit(), f.clock());
    }
    boolean ok = lost == 0 && duplicates == 0;
    out.println(ok ? "invariants: every TLP delivered exactly once"
        : "INVARIANT BROKEN: " + lost + " lost, " + duplicates + " duplicated");
    partial.complete(() -> {
      if (json != null) {
        Map<String, Object> result = result(params, true);
        result.put("figures", figures.stream().map(Figure::toMap).toList());
        result.put("invariants", List.of(Map.of("name", "every TLP delivered exactly once", "pass", ok)));
        AtomicFiles.writeString(json, Json.write(result));
        out.println("wrote " + json);
      }
    });
    return ok ? 0 : 1;
  }
}
