package io.rackfabric.loadtests.bench;

import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.node.ClusterSettings;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.stats.PortStats;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.ScenarioKinds;
import io.rackfabric.loadtests.scenario.ScenarioRunner;
import io.rackfabric.loadtests.scenario.api.RunResult;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The loaded rack: a generated Ladon rack of N compute hosts in which every CH writes into the
 * next one (CH N into CH 1) through the primary plane, under the model-time kernel, in one JVM or
 * on three (the switches, each management host with half the CHs). Measured: TLP hops per wall
 * second (a TLP's link transmissions and switch crossings, each a message between actors), the
 * kernel's messages per TLP, the model-time write latency; beside it, in the same JVM and run,
 * the bare tell chain of {@link DataplaneBench}.
 */
final class LoadedRackBench {

  /** Model time between two writes of one CH: the link stays far from saturation. */
  static final long INTERVAL_NS = 200;

  record Result(List<Figure> figures, boolean passed) {}

  private LoadedRackBench() {}

  /** The scenario text: one write generator per CH, each into the next CH's memory. */
  static String scenario(int hosts, long tlps, boolean threeNodes) {
    long perHost = Math.max(1, (tlps + hosts - 1) / hosts);
    StringBuilder s = new StringBuilder();
    s.append("scenario {\n  name = loaded-rack-").append(hosts).append('\n');
    s.append("  topology { generate = ladon, hosts = ").append(hosts).append(", pms2-base = 2TiB, placement = ")
        .append(threeNodes ? "three-node" : "single-node").append(" }\n");
    s.append("  mode = ").append(threeNodes ? "multi-jvm" : "single-jvm").append('\n');
    if (threeNodes) {
      s.append("  multi-jvm { transport = aeron-udp, media-driver = shared }\n");
      // No JVM is killed: a long DLLP timeout keeps a JVM's start-up stall from downing a cable.
      s.append("  run { wall-limit = 60m, link-timers { keepalive = 1s, dllp-timeout = 30s, init-retry = 500ms,"
          + " init-timeout = 10s } }\n");
    } else {
      s.append("  run { wall-limit = 60m }\n");
    }
    s.append("  traffic = [\n");
    for (int i = 1; i <= hosts; i++) {
      int next = i % hosts + 1;
      // In a CH's view CH j sits at (j + 1) x 32 GiB through the primary plane; 1 MiB above its
      // control page.
      long address = (next + 1L) * (32L << 30) + (1L << 20);
      s.append(String.format("    { name = ch%d-to-ch%d, from = ch%d, to = \"0x%x\", size = 64, interval = %dns,"
          + " count = %d, payload = false }%n", i, next, i, address, INTERVAL_NS, perHost));
    }
    s.append("  ]\n  invariants = [ no-duplicates, in-order ]\n  figures = [traffic, run, scale]\n}\n");
    return s.toString();
  }

  static Result run(int hosts, long tlps, boolean threeNodes, int bareRounds, Path runDir, PrintStream out)
      throws Exception {
    Files.createDirectories(runDir);
    String text = scenario(hosts, tlps, threeNodes);
    Path file = runDir.resolve("loaded-rack.conf");
    Files.writeString(file, text);
    var kinds = ScenarioKinds.standard();
    Scenario s = ScenarioLoader.parse(text, file.toString(), runDir, kinds, ScenarioOptions.NONE);
    ScenarioRunner.Outcome o = new ScenarioRunner(kinds).run(s, runDir.resolve("run"), out);
    RunResult r = o.result();
    String p = threeNodes ? "loaded_rack.three_jvms." : "loaded_rack.one_jvm.";
    long hops = hops(r.endpointsAtStart(), r.endpointsAtEnd(), r.portsAtStart(), r.portsAtEnd());
    double seconds = Math.max(1e-9, r.trafficNanos() / 1e9);
    long delivered = o.figures().stream().filter(f -> f.name().equals("writes_delivered")).mapToLong(f -> (long) f.value())
        .findFirst().orElse(-1);
    List<Figure> figures = new ArrayList<>();
    figures.add(new Figure(p + "writes_delivered", delivered, "TLPs", "count"));
    figures.add(new Figure(p + "tlp_hops", hops, "hops", "count"));
    figures.add(new Figure(p + "hops_per_s", hops / seconds, "hops/s", "wall"));
    for (String name : List.of("sync.rounds", "sync.messages_per_tlp", "sync.stragglers")) {
      o.figures().stream().filter(f -> f.name().equals(name)).findFirst()
          .ifPresent(f -> figures.add(new Figure(p + name, f.value(), f.unit(), f.clock())));
    }
    figures.addAll(latency(o.figures(), p));
    double bare = bareChain(bareRounds, out);
    figures.add(new Figure(p + "bare_chain_hops_per_s", bare, "hops/s", "wall"));
    double ratio = hops / seconds / bare;
    figures.add(new Figure(p + "ratio", ratio, "fabric/bare", "wall"));
    boolean passed = o.invariants().stream().allMatch(c -> c.verdict().pass());
    return new Result(figures, passed);
  }

  /** Messages that carried a TLP between actors: each link transmission and each switch crossing. */
  static long hops(Map<String, EndpointStats> endpointsAtStart, Map<String, EndpointStats> endpointsAtEnd,
      Map<String, PortStats> portsAtStart, Map<String, PortStats> portsAtEnd) {
    long hops = 0;
    for (var e : endpointsAtEnd.entrySet()) {
      EndpointStats start = endpointsAtStart.get(e.getKey());
      hops += e.getValue().link().tlpsSent() - (start == null ? 0 : start.link().tlpsSent());
    }
    for (var e : portsAtEnd.entrySet()) {
      PortStats start = portsAtStart.get(e.getKey());
      // Every TLP a port sends onto its link crossed the chip to it first.
      hops += 2 * (e.getValue().tlpsSent() - (start == null ? 0 : start.tlpsSent()));
    }
    return hops;
  }

  /** The sinks' model-time latencies: the median of their medians, the largest 99th percentile and maximum. */
  static List<Figure> latency(List<Figure> figures, String prefix) {
    List<Double> p50 = values(figures, "latency_p50");
    List<Double> p99 = values(figures, "latency_p99");
    List<Double> max = values(figures, "latency_max");
    List<Figure> out = new ArrayList<>();
    if (!p50.isEmpty()) {
      out.add(new Figure(prefix + "latency_p50", DataplaneBench.median(p50), "ns", "model"));
      out.add(new Figure(prefix + "latency_p99_max", p99.stream().mapToDouble(d -> d).max().orElse(0), "ns", "model"));
      out.add(new Figure(prefix + "latency_max", max.stream().mapToDouble(d -> d).max().orElse(0), "ns", "model"));
    }
    return out;
  }

  private static List<Double> values(List<Figure> figures, String suffix) {
    return figures.stream().filter(f -> f.name().startsWith("sink.") && f.name().endsWith("." + suffix))
        .map(Figure::value).toList();
  }

  /** The bare tell chain in a local actor system of this JVM, with the rack's dispatcher: the median of rounds. */
  private static double bareChain(int rounds, PrintStream out) throws Exception {
    Config base = ConfigFactory.load();
    Config config = ConfigFactory.parseString("akka.actor.provider = local")
        .withFallback(ClusterSettings.create(base).dispatcher()).withFallback(base);
    FabricSettings settings = FabricSettings.create(config);
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "bench-bare", config);
    try {
      int window = (int) settings.receiveBuffers().postedHeader() * DataplaneBench.PATH_HOPS;
      List<Double> rates = new ArrayList<>();
      for (int round = -DataplaneBench.WARMUPS + 1; round <= rounds; round++) {
        double rate = DataplaneBench.bareChain(system, 200_000, window, settings.releaseBatch(), round + 10);
        if (round > 0) {
          rates.add(rate);
        }
      }
      double median = DataplaneBench.median(rates);
      out.printf("  bare tell chain (6 actors): %,.0f hops/s (median of %d rounds)%n", median, rounds);
      return median;
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }
}
