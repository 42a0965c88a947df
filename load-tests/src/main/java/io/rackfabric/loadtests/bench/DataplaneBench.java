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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The data-plane benchmark: the fabric against the bare runtime it stands on, in the same run.
 * Single JVM: posted writes through a two-switch path (6 actors, 5 hops per TLP) against a bare
 * tell chain of 6 actors with an end-to-end window. Across JVMs: posted writes over one link
 * between two node JVMs with credit flow control against bare Artery sends of the same payload
 * size with the same window. Rates are wall-clock; every round is kept.
 */
public final class DataplaneBench {

  /** The 64-byte payload of every message in both the fabric and the baseline. */
  static final int PAYLOAD = 64;
  static final int PATH_HOPS = 5;
  /** Rounds run and discarded first, so that both sides are measured after the JIT settled. */
  static final int WARMUPS = 2;

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

  private DataplaneBench() {}

  public static Comparison singleJvm(long tlps, int rounds, PrintStream progress) throws Exception {
    Config config = ConfigFactory.parseString("akka.actor.provider = local").withFallback(ConfigFactory.load());
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "bench-local", config);
    try {
      FabricSettings settings = FabricSettings.create(config);
      int window = (int) settings.receiveBuffers().postedHeader() * PATH_HOPS;
      int ackEvery = settings.releaseBatch();
      List<Double> fabric = new ArrayList<>();
      List<Double> bare = new ArrayList<>();
      for (int round = -WARMUPS + 1; round <= rounds; round++) {
        double f = fabricPath(system, settings, tlps, round + WARMUPS);
        double b = bareChain(system, tlps, window, ackEvery, round + WARMUPS);
        if (round <= 0) {
          progress.printf("  warm-up: fabric %,.0f hops/s, bare %,.0f hops/s%n", f, b);
        } else {
          progress.printf("  round %d: fabric %,.0f hops/s, bare %,.0f hops/s%n", round, f, b);
          fabric.add(f);
          bare.add(b);
        }
      }
      return new Comparison(fabric, bare);
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  /** The seeds/000 Fig. 1 two-switch shape; returns TLP hops per second. */
  private static double fabricPath(ActorSystem<Void> system, FabricSettings settings, long tlps, int round)
      throws Exception {
    String r = "-" + round;
    LinkParameters link = LinkParameters.gen3x4();
    RoutingTable t1 = new RoutingTable(List.of(
        new PortConfig("up", 0, PortRole.UPSTREAM, 1, new BridgeRegisters(0, 1, 3, new AddressRange(0x10000, 0xEFFFF), null), null),
        new PortConfig("right", 2, PortRole.DOWNSTREAM, 1, new BridgeRegisters(1, 2, 3, new AddressRange(0x90000, 0xEFFFF), null), null)),
        List.of());
    RoutingTable t2 = new RoutingTable(List.of(
        new PortConfig("up", 0, PortRole.UPSTREAM, 1, new BridgeRegisters(2, 3, 4, new AddressRange(0x90000, 0xEFFFF), null), null),
        new PortConfig("down", 1, PortRole.DOWNSTREAM, 1, new BridgeRegisters(3, 4, 4, new AddressRange(0xA0000, 0xEFFFF), null), null)),
        List.of());
    CompletableFuture<List<ActorRef<MemoryEndpoint.Command>>> eps = new CompletableFuture<>();
    Behavior<String> parent = Behaviors.setup(ctx -> {
      ActorRef<MemoryEndpoint.Command> a = ctx.spawn(MemoryEndpoint.create("a" + r, Bdf.of(0, 0, 0), true,
          List.of(new AddressRange(0, 0xFFFF)), link, "s1" + r + ".up", settings), "a");
      ctx.spawn(SwitchChip.create("s1" + r, t1, List.of(new SwitchChip.PortLink(0, link, "a" + r),
          new SwitchChip.PortLink(2, link, "s2" + r + ".up")), settings), "s1");
      ctx.spawn(SwitchChip.create("s2" + r, t2, List.of(new SwitchChip.PortLink(0, link, "s1" + r + ".right"),
          new SwitchChip.PortLink(1, link, "b" + r)), settings), "s2");
      ActorRef<MemoryEndpoint.Command> b = ctx.spawn(MemoryEndpoint.create("b" + r, Bdf.of(4, 0, 0), false,
          List.of(new AddressRange(0xA0000, 0xEFFFF)), link, "s2" + r + ".down", settings), "b");
      eps.complete(List.of(a, b));
      return Behaviors.receiveMessage(m -> Behaviors.stopped());
    });
    ActorRef<String> runner = system.systemActorOf(parent, "fabric-path" + r, Props.empty());
    try {
      ActorRef<MemoryEndpoint.Command> a = eps.get(10, TimeUnit.SECONDS).get(0);
      ActorRef<MemoryEndpoint.Command> b = eps.get().get(1);
      Asks.awaitLinkActive(system, a, Duration.ofSeconds(20));
      Asks.awaitLinkActive(system, b, Duration.ofSeconds(20));
      return PATH_HOPS * stream(system, a, b, tlps, 0xA0000);
    } finally {
      runner.tell("stop");
    }
  }

  /** Streams {@code tlps} posted writes from a to b; returns TLPs per wall second. */
  private static double stream(ActorSystem<?> system, ActorRef<MemoryEndpoint.Command> a,
      ActorRef<MemoryEndpoint.Command> b, long tlps, long base) throws Exception {
    long before = Asks.stats(system, b).uniqueWrites();
    TrafficPlan plan = new TrafficPlan(base, 0x40000, PAYLOAD, tlps, 10, false, true);
    var reached = Asks.<MemoryEndpoint.Command, MemoryEndpoint.WritesReached>askAsync(
        system, b, r -> new MemoryEndpoint.AwaitWrites(before + tlps, r), Duration.ofMinutes(5));
    long start = System.nanoTime();
    a.tell(new MemoryEndpoint.StartTraffic(plan, system.ignoreRef()));
    reached.get(5, TimeUnit.MINUTES);
    return tlps / ((System.nanoTime() - start) / 1e9);
  }

  /** A bare chain of six actors; returns message hops per second. */
  private static double bareChain(ActorSystem<Void> system, long count, int window, int ackEvery, int round)
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
  public static Comparison crossJvm(long tlps, int rounds, String transport, Path runDir, PrintStream progress)
      throws Exception {
    Config base = ConfigFactory.load();
    ClusterSettings cluster = ClusterSettings.create(base).withTransport(transport);
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
          "512m", Duration.ofSeconds(60));
      ActorRef<MemoryEndpoint.Command> a = Asks.find(system, ComponentKeys.endpoint("ep-a"), Duration.ofSeconds(30));
      ActorRef<MemoryEndpoint.Command> b = Asks.find(system, ComponentKeys.endpoint("ep-b"), Duration.ofSeconds(30));
      ActorRef<BareSink.Command> sink = Asks.find(system, BenchPeerCommand.SINK_KEY, Duration.ofSeconds(30));
      Asks.awaitLinkActive(system, a, Duration.ofSeconds(30));
      int window = (int) settings.receiveBuffers().postedHeader();
      int ackEvery = Math.max(1, window / 4);
      List<Double> fabric = new ArrayList<>();
      List<Double> bare = new ArrayList<>();
      for (int round = -WARMUPS + 1; round <= rounds; round++) {
        double f = stream(system, a, b, tlps, 0x8000_0000L);
        double bb = bareRemote(system, sink, tlps, window, ackEvery, round + WARMUPS);
        if (round <= 0) {
          progress.printf("  warm-up: fabric %,.0f TLPs/s, bare Artery %,.0f msgs/s%n", f, bb);
        } else {
          progress.printf("  round %d: fabric %,.0f TLPs/s, bare Artery %,.0f msgs/s%n", round, f, bb);
          fabric.add(f);
          bare.add(bb);
        }
      }
      return new Comparison(fabric, bare);
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
