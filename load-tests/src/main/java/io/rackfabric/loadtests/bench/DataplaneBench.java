package io.rackfabric.loadtests.bench;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Behavior;
import akka.actor.typed.Props;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.node.ClusterSettings;
import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.cluster.node.NodeRunner;
import io.rackfabric.cluster.node.RackNode;
import io.rackfabric.cluster.node.RackTime;
import io.rackfabric.fabric.time.TimeKeeper;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyLoader;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.endpoint.TrafficPlan;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.loadtests.harness.NodeProcesses;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The data-plane benchmark: the fabric against the bare runtime it stands on, in the same run.
 * Single JVM, under the model-time kernel as every run is: posted writes through a two-switch
 * path (6 actors, 5 hops per TLP) against a bare
 * tell chain of 6 actors with an end-to-end window. Across JVMs: posted writes over one link
 * between two node JVMs with credit flow control against bare Artery sends of the same payload
 * size with the same window. Rates are wall-clock; every round is kept.
 */
public final class DataplaneBench {

  /** The 64-byte payload of every message in both the fabric and the baseline. */
  public static final int PAYLOAD = 64;
  static final int PATH_HOPS = 5;
  /** Rounds run and discarded first, so that both sides are measured after the JIT settled. */
  public static final int WARMUPS = 2;

  /** Rates of one comparison, one entry per round. */
  public record Comparison(List<Double> fabric, List<Double> bare) {
    public double fabricMedian() {
      return median(fabric);
    }

    public double bareMedian() {
      return median(bare);
    }

    /** The median of per-round ratios: each fabric round is paired with the bare round after it. */
    public double ratio() {
      List<Double> ratios = new ArrayList<>();
      for (int i = 0; i < fabric.size(); i++) {
        ratios.add(fabric.get(i) / bare.get(i));
      }
      return median(ratios);
    }
  }

  /**
   * The same path measured twice in one run: free-running (each component handles its events as
   * they arrive, as before there was a kernel), then under the model-time kernel as every run is.
   * The difference is what synchronization costs.
   */
  public record Runs(Comparison free, Comparison synchronized_) {}

  private DataplaneBench() {}

  public static Runs singleJvm(long tlps, int rounds, PrintStream progress) throws Exception {
    Config base = ConfigFactory.load();
    Config config = ConfigFactory.parseString("akka.actor.provider = local")
        .withFallback(ClusterSettings.create(base).dispatcher()).withFallback(base);
    FabricSettings settings = FabricSettings.create(config);
    // The paper's Fig. 1 rack, spawned by the same launcher a node uses; the path measured is
    // rc > sw1(up>right) > sw2(up>down) > ep2.
    Topology fig1 = TopologyLoader.load("fig1");
    ActorSystem<RackNode.Command> system =
        ActorSystem.create(RackNode.create(fig1, fig1.seed().name(), settings), "bench-local", config);
    try {
      ActorRef<MemoryEndpoint.Command> rc = Asks.find(system, ComponentKeys.endpoint("rc"), Duration.ofSeconds(10));
      ActorRef<MemoryEndpoint.Command> ep2 = Asks.find(system, ComponentKeys.endpoint("ep2"), Duration.ofSeconds(10));
      Asks.awaitLinkActive(system, rc, Duration.ofSeconds(20));
      Asks.awaitLinkActive(system, ep2, Duration.ofSeconds(20));
      int window = (int) settings.receiveBuffers().postedHeader() * PATH_HOPS;
      int ackEvery = settings.releaseBatch();
      int[] chain = {0};
      progress.println("  free-running:");
      Comparison free = compare(rounds, progress, "hops/s", "bare", "hops/s",
          () -> PATH_HOPS * stream(system, rc, ep2, tlps, 0xA0000, 0x10000, false),
          () -> bareChain(system, tlps, window, ackEvery, chain[0]++));
      synchronize(system, fig1);
      progress.println("  under the model-time kernel:");
      Comparison synced = compare(rounds, progress, "hops/s", "bare", "hops/s",
          () -> PATH_HOPS * stream(system, rc, ep2, tlps, 0xA0000, 0x10000, false),
          () -> bareChain(system, tlps, window, ackEvery, chain[0]++));
      return new Runs(free, synced);
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  /** Starts the run's kernel here; every node's components join it; returns once they all have. */
  private static void synchronize(ActorSystem<?> system, Topology topology) throws Exception {
    ActorRef<TimeKeeper.Command> keeper = RackTime.start(system, topology);
    Asks.<TimeKeeper.Command, TimeKeeper.Status>ask(system, keeper, TimeKeeper.AwaitIdle::new, Duration.ofSeconds(30));
  }

  /**
   * TLPs per synchronized round across JVMs: a kernel round there costs Artery round trips, so
   * the full count would take hours; a hundredth, at least 1,000, measures the same rate.
   */
  static long synchronizedCrossTlps(long tlps) {
    return Math.max(1_000, tlps / 100);
  }

  /** A measurement that may fail. */
  private interface Measure {
    double run() throws Exception;
  }

  /** Runs the warm-up rounds, then {@code rounds} pairs of fabric and bare measurements. */
  private static Comparison compare(int rounds, PrintStream progress, String fabricUnit, String bareName,
      String bareUnit, Measure fabricRun, Measure bareRun) throws Exception {
    List<Double> fabric = new ArrayList<>();
    List<Double> bare = new ArrayList<>();
    for (int round = -WARMUPS + 1; round <= rounds; round++) {
      double f = fabricRun.run();
      double b = bareRun.run();
      String label = round <= 0 ? "warm-up" : "round " + round;
      progress.printf("  %s: fabric %,.0f %s, %s %,.0f %s%n", label, f, fabricUnit, bareName, b, bareUnit);
      if (round > 0) {
        fabric.add(f);
        bare.add(b);
      }
    }
    return new Comparison(fabric, bare);
  }

  /**
   * Streams {@code tlps} posted writes of 64 bytes from a to b; returns TLPs per wall second.
   * {@code withData} carries the payload bytes: needed across JVMs, where the bytes are what
   * travels; within one JVM a payload is a reference either way, and generating one per TLP
   * would measure the traffic source rather than the fabric (the baseline shares one array).
   */
  private static double stream(ActorSystem<?> system, ActorRef<MemoryEndpoint.Command> a,
      ActorRef<MemoryEndpoint.Command> b, long tlps, long base, long span, boolean withData) throws Exception {
    long before = Asks.stats(system, b).uniqueWrites();
    TrafficPlan plan = new TrafficPlan(base, span, PAYLOAD, tlps, 10, false, withData);
    var reached = Asks.<MemoryEndpoint.Command, MemoryEndpoint.WritesReached>askAsync(
        system, b, r -> new MemoryEndpoint.AwaitWrites(before + tlps, r), Duration.ofMinutes(5));
    long start = System.nanoTime();
    a.tell(new MemoryEndpoint.StartTraffic(plan, system.ignoreRef()));
    reached.get(5, TimeUnit.MINUTES);
    return tlps / ((System.nanoTime() - start) / 1e9);
  }

  /** A bare chain of six actors; returns message hops per second. */
  static double bareChain(ActorSystem<?> system, long count, int window, int ackEvery, int round)
      throws Exception {
    CompletableFuture<Long> done = new CompletableFuture<>();
    Behavior<String> parent = Behaviors.setup(ctx -> {
      ActorRef<BareSink.Command> sink = ctx.spawn(BareSink.create(), "sink");
      ActorRef<BarePayload> next = sink.narrow();
      for (int i = 4; i >= 1; i--) {
        next = ctx.spawn(BareRelay.create(next), "relay" + i).narrow();
      }
      ActorRef<BareSource.Command> source = ctx.spawn(BareSource.create(next, count, window, PAYLOAD, done), "source");
      sink.tell(new BareSink.Attach(source, ackEvery));
      source.tell(new BareSource.Go());
      return Behaviors.receiveMessage(m -> Behaviors.stopped());
    });
    ActorRef<String> runner = system.systemActorOf(parent, "bare-chain-" + round, Props.empty());
    try {
      long nanos = done.get(5, TimeUnit.MINUTES);
      return PATH_HOPS * count / (nanos / 1e9);
    } finally {
      runner.tell("stop");
    }
  }

  /** The cross-JVM comparison; starts and always stops one peer JVM. */
  public static Runs crossJvm(long tlps, int rounds, String transport, Path runDir, PrintStream progress)
      throws Exception {
    return crossJvm(tlps, rounds, transport, null, runDir, progress);
  }

  /** @param tlsDir with tls-tcp: the rack's keys folder, or null for the stores in the settings */
  public static Runs crossJvm(long tlps, int rounds, String transport, String tlsDir, Path runDir,
      PrintStream progress) throws Exception {
    Config base = ConfigFactory.load();
    ClusterSettings cluster = ClusterSettings.create(base, transport, tlsDir);
    FabricSettings settings = FabricSettings.create(base);
    Topology topology = TopologyLoader.load("bench-pair");
    Path topologyFile = runDir.resolve("bench-pair.conf");
    Files.createDirectories(runDir);
    try (var in = DataplaneBench.class.getClassLoader().getResourceAsStream("topologies/bench-pair.conf")) {
      Files.writeString(topologyFile, new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
    int portA = NodeProcesses.freePort();
    int portB = NodeProcesses.freePort();
    ActorSystem<RackNode.Command> system = NodeRunner.start(topology, "node-a",
        new NodeRunner.Address("127.0.0.1", portA, "127.0.0.1", portA), List.of("fabric", "node-a"), cluster, base);
    try (NodeProcesses peers = new NodeProcesses(runDir)) {
      progress.println("  starting the peer JVM (" + transport + ")...");
      peers.start("node-b", "bench-peer", List.of("--topology", topologyFile.toString(), "--node", "node-b",
          "--port", String.valueOf(portB), "--seed", "127.0.0.1:" + portA, "--transport", transport),
          cluster.tls() == null ? Map.of() : cluster.tls().childSettings(), "512m", Duration.ofSeconds(60));
      ActorRef<MemoryEndpoint.Command> a = Asks.find(system, ComponentKeys.endpoint("ep-a"), Duration.ofSeconds(30));
      ActorRef<MemoryEndpoint.Command> b = Asks.find(system, ComponentKeys.endpoint("ep-b"), Duration.ofSeconds(30));
      ActorRef<BareSink.Command> sink = Asks.find(system, BareSink.KEY, Duration.ofSeconds(30));
      Asks.awaitLinkActive(system, a, Duration.ofSeconds(30));
      int window = (int) settings.receiveBuffers().postedHeader();
      int ackEvery = Math.max(1, window / 4);
      int[] round = {0};
      progress.println("  free-running:");
      Comparison free = compare(rounds, progress, "TLPs/s", "bare Artery", "msgs/s",
          () -> stream(system, a, b, tlps, 0x8000_0000L, 0x40000, true),
          () -> bareRemote(system, sink, tlps, window, ackEvery, round[0]++));
      // Both JVMs' components under one model-time kernel, here, as in a multi-JVM run.
      synchronize(system, topology);
      long fewer = synchronizedCrossTlps(tlps);
      progress.printf("  under the model-time kernel (%,d TLPs per round):%n", fewer);
      Comparison synced = compare(rounds, progress, "TLPs/s", "bare Artery", "msgs/s",
          () -> stream(system, a, b, fewer, 0x8000_0000L, 0x40000, true),
          () -> bareRemote(system, sink, fewer, window, ackEvery, round[0]++));
      return new Runs(free, synced);
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  private static double bareRemote(ActorSystem<?> system, ActorRef<BareSink.Command> sink, long count, int window,
      int ackEvery, int round) throws Exception {
    CompletableFuture<Long> done = new CompletableFuture<>();
    ActorRef<BareSource.Command> source = system.systemActorOf(
        BareSource.create(sink.narrow(), count, window, PAYLOAD, done), "bare-source-" + round, Props.empty());
    sink.tell(new BareSink.Attach(source, ackEvery));
    // The attach must reach the sink before the first payload: both go over the same association
    // in order, so sending Go after Attach is enough.
    source.tell(new BareSource.Go());
    long nanos = done.get(5, TimeUnit.MINUTES);
    return count / (nanos / 1e9);
  }

  static double median(List<Double> xs) {
    List<Double> s = new ArrayList<>(xs);
    s.sort(null);
    int n = s.size();
    return n == 0 ? Double.NaN : n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
  }
}
