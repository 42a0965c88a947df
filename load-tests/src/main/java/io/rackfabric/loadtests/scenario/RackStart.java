package io.rackfabric.loadtests.scenario;

import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.node.ClusterSettings;
import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.cluster.node.ControlPlaneBoot;
import io.rackfabric.cluster.node.NodeConfig;
import io.rackfabric.cluster.node.RackNode;
import io.rackfabric.cluster.node.RackTime;
import io.rackfabric.cluster.topology.NodeSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyWriter;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.time.TimeKeeper;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.loadtests.harness.ClusterRun;
import io.rackfabric.loadtests.scenario.language.Mode;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.persistence.journal.JournalConfig;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * Starts a scenario's {@link LiveRack}: in one JVM (a {@link RackNode} for every topology node in
 * one actor system, as the single-JVM bench does) or one JVM per node through {@link ClusterRun};
 * either way it returns once every link trained, the components joined the model-time kernel (when
 * the run has one) and the control plane booted, with the heap the components hold measured. A
 * rack that fails to start is closed before the failure is thrown.
 */
public final class RackStart {

  private static final Duration FIND = Duration.ofSeconds(30);
  /** The pair's boot recovers two controllers and persists the plan twice: longer is stuck. */
  private static final Duration BOOT = Duration.ofMinutes(2);

  private RackStart() {}

  /** A run under the model-time kernel: the management-host pair's heartbeats are model-time events too. */
  static final String MODEL_TIME_HEARTBEATS = "rackfabric.host.controlplane.model-time-heartbeats";

  private static Map<String, String> underKernel(Map<String, String> overrides) {
    Map<String, String> all = new java.util.LinkedHashMap<>(overrides);
    all.putIfAbsent(MODEL_TIME_HEARTBEATS, "true");
    return all;
  }

  /** Every node of the topology in this JVM, in one actor system without remoting. */
  public static LiveRack singleJvm(Topology topology, Path runDir, PrintStream progress) throws Exception {
    return singleJvm(topology, runDir, progress, Map.of());
  }

  /**
   * @param overrides configuration paths and values for this run's JVM, over the defaults (the
   *     take-over mode a scenario selects)
   */
  public static LiveRack singleJvm(Topology topology, Path runDir, PrintStream progress, Map<String, String> overrides)
      throws Exception {
    Files.createDirectories(runDir);
    Config base = ConfigFactory.parseMap(underKernel(overrides)).withFallback(ConfigFactory.load());
    Config config = ConfigFactory.parseString("akka.actor.provider = local").withFallback(NodeConfig.logging())
        .withFallback(ClusterSettings.create(base).dispatcher()).withFallback(base);
    if (topology.controlPlane() != null) {
      // Both management hosts in one journal file, each under a persistence id of its own.
      config = JournalConfig.h2(runDir.resolve("data"), "rack", 2).withFallback(config);
    }
    FabricSettings settings = FabricSettings.create(config);
    // The guardian spawns the nodes when told, so that the heap can be measured with the actor
    // system up and no component yet: the difference is what the rack's components hold.
    ActorSystem<SpawnNodes> system = ActorSystem.create(Behaviors.receive((ActorContext<SpawnNodes> ctx, SpawnNodes msg) -> {
      // The run's model-time kernel: every fabric component joins it once its node finds it.
      RackTime.start(ctx.getSystem(), topology);
      for (NodeSpec n : topology.nodes()) {
        ctx.spawn(RackNode.create(topology, n.name(), settings), n.name());
      }
      return Behaviors.same();
    }), "rack", config);
    LiveRack rack = new LiveRack(topology, Mode.SINGLE_JVM, system, null, runDir);
    try {
      long before = usedHeapAfterGc();
      system.tell(SpawnNodes.INSTANCE);
      rack.findAll();
      rack.clock.use(Asks.find(system, TimeKeeper.KEY, FIND));
      TimeKeeper.Status joined = Asks.ask(system, rack.clock.keeper(), TimeKeeper.AwaitIdle::new, FIND);
      progress.printf("  %d nodes in this JVM, every endpoint's link trained, %d components in model-time"
          + " synchronization%n", topology.nodes().size(), joined.joined());
      awaitControlPlane(rack, progress);
      rack.heapGrowth = usedHeapAfterGc() - before;
      return rack;
    } catch (Exception | Error e) {
      rack.close();
      throw e;
    }
  }

  /**
   * One JVM per topology node, driven from this JVM (the seed, with no component). The node JVMs
   * read the topology from a file written into the run folder, so a bundled or generated rack
   * runs the same way as one from disk.
   *
   * @param overrides configuration paths and values for every node JVM (system properties)
   * @param needsNetem with {@code settings.network() = namespaces}: a fault degrades with delay or
   *     loss, so the run refuses up front where netem is missing
   * @param synchronize whether the fabric runs under the model-time kernel (the run is to be
   *     reproducible). Across JVMs a kernel round costs Artery round trips, about one per TLP hop,
   *     so a run that gave up reproducibility ({@code run.reproducible = false}) runs its fabric
   *     free instead: each component's clock moves on its own, in the order messages arrive.
   */
  public static LiveRack multiJvm(Topology topology, Scenario.MultiJvm settings, Path runDir, PrintStream progress,
      Map<String, String> overrides, boolean needsNetem, boolean synchronize) throws Exception {
    Files.createDirectories(runDir);
    Path file = runDir.resolve("topology.conf");
    Files.writeString(file, TopologyWriter.write(topology, "written by rack run for the node JVMs of this run"));
    ClusterRun cluster = ClusterRun.start(topology, file.toAbsolutePath().toString(), settings.transport(),
        settings.sharedMediaDriver(), runDir, progress, synchronize ? underKernel(overrides) : overrides,
        settings.network(), needsNetem, settings.tlsDir());
    LiveRack rack = new LiveRack(topology, Mode.MULTI_JVM, cluster.driver(), cluster, runDir);
    try {
      // The kernel runs in this driver JVM; every node's components find it and join over Artery,
      // so the node JVMs' model time is one, whatever each JVM's speed.
      rack.clock.use(synchronize ? RackTime.start(cluster.driver(), topology) : null);
      rack.findAll();
      if (rack.clock.running()) {
        TimeKeeper.Status joined = Asks.ask(rack.system(), rack.clock.keeper(), TimeKeeper.AwaitIdle::new, FIND);
        progress.printf("  %d components on %d node JVMs in model-time synchronization%n", joined.joined(),
            topology.nodes().size());
      } else {
        progress.printf("  the fabric runs free of the model-time kernel (run.reproducible = false)%n");
      }
      awaitControlPlane(rack, progress);
      rack.heapGrowth = nodesHeapGrowth(rack, progress);
      return rack;
    } catch (Exception | Error e) {
      rack.close();
      throw e;
    }
  }

  /** The guardian's one message: spawn every node of the topology (single-JVM racks). */
  private enum SpawnNodes implements akka.actor.NoSerializationVerificationNeeded { INSTANCE }

  private static long usedHeapAfterGc() {
    return RackNode.usedHeapAfterGc();
  }

  /**
   * The heap the node JVMs' components hold, summed: each node's used heap after a full collection
   * now (every link trained, the control plane booted) minus its own before it spawned anything.
   * Long.MIN_VALUE when a node gave no reading.
   */
  private static long nodesHeapGrowth(LiveRack rack, PrintStream progress) {
    ActorSystem<?> system = rack.system();
    long sum = 0;
    for (NodeSpec n : rack.topology().nodes()) {
      try {
        RackNode.HeapReading r = Asks.<RackNode.Command, RackNode.HeapReading>ask(system,
            Asks.find(system, ComponentKeys.node(n.name()), FIND), RackNode.MeasureHeap::new, FIND);
        if (r.growth().isEmpty()) {
          return Long.MIN_VALUE;
        }
        sum += r.growth().getAsLong();
      } catch (Exception e) {
        progress.printf("  no heap reading from %s: %s%n", n.name(), e.getMessage());
        return Long.MIN_VALUE;
      }
    }
    return sum;
  }

  /**
   * With a management-host pair, waits until its boot (Figure 4) has paired the master with its
   * backup: before that the devices may sit in the backup's VS2, out of the master's reach, and a
   * kill of the master would find no backup. A rack of such a topology always keeps a journal
   * (here in one JVM, through {@code rack node} in node JVMs), so the pair always boots; without
   * a control-plane section nothing waits.
   */
  private static void awaitControlPlane(LiveRack rack, PrintStream progress) throws Exception {
    ActorSystem<?> system = rack.system();
    if (rack.topology().controlPlane() == null) {
      return;
    }
    ControlPlaneBoot.BootProgress boot = Asks.<ControlPlaneBoot.Command, ControlPlaneBoot.BootProgress>ask(system,
        Asks.find(system, ComponentKeys.controlPlaneBoot(), FIND), ControlPlaneBoot.AwaitBooted::new, BOOT);
    if (!boot.booted()) {
      throw new IllegalStateException("the control plane of " + boot.master() + " and " + boot.backup()
          + " did not boot: " + boot.failure());
    }
    progress.printf("  control plane booted (Figure 4): %s enumerated with ports %s in VS2, %s with them back in"
        + " VS1, both template images at sequence number %d, paired%n", boot.backup(), boot.devicePorts(),
        boot.master(), boot.masterTemplateSeqNr());
  }
}
