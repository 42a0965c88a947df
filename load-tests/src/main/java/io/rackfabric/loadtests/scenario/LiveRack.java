package io.rackfabric.loadtests.scenario;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Adapter;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.node.ClusterSettings;
import io.rackfabric.cluster.node.NodeConfig;
import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.cluster.node.ControlPlaneBoot;
import io.rackfabric.cluster.node.RackNode;
import io.rackfabric.cluster.node.RackTime;
import io.rackfabric.loadtests.scenario.language.Mode;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.cluster.topology.Component;
import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.GlobalMemorySpec;
import io.rackfabric.cluster.topology.LinkSpec;
import io.rackfabric.cluster.topology.NodeSpec;
import io.rackfabric.cluster.topology.SwitchSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyWriter;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.link.LinkErrors;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.port.LinkPort;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.stats.PortStats;
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.fabric.switchchip.SwitchPort;
import io.rackfabric.fabric.time.TimeKeeper;
import io.rackfabric.host.compute.ComputeHost;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.host.management.ManagementHost;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.loadtests.harness.ClusterRun;
import io.rackfabric.loadtests.harness.Netns;
import io.rackfabric.loadtests.harness.NetnsPlan;
import io.rackfabric.loadtests.harness.RackHorizon;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import io.rackfabric.persistence.journal.JournalConfig;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The {@link RunningRack} of a scenario run: in one JVM ({@link #singleJvm}, a {@link RackNode}
 * for every topology node in one actor system, as the single-JVM bench does) or one JVM per node
 * ({@link #multiJvm}, through {@link ClusterRun}). {@link #close} stops everything it started.
 */
public final class LiveRack implements RunningRack, AutoCloseable {

  private static final Duration FIND = Duration.ofSeconds(30);
  private static final Duration ASK = Duration.ofSeconds(5);
  /** The pair's boot recovers two controllers and persists the plan twice: longer is stuck. */
  private static final Duration BOOT = Duration.ofMinutes(2);
  /** A PhysicalDown is one message away; this much wall time means the partner is stuck. */
  private static final Duration LINK_DOWN_TIMEOUT = Duration.ofSeconds(10);

  /** The run's model-time kernel, when the rack runs under one. */
  private ActorRef<TimeKeeper.Command> keeper;
  private final Topology topology;
  private final Mode mode;
  private final ActorSystem<?> system;
  private final ClusterRun cluster;
  private final Path runDir;
  private final Map<String, ActorRef<MemoryEndpoint.Command>> endpoints = new ConcurrentHashMap<>();
  private final Map<String, ActorRef<SwitchChip.Command>> switches = new ConcurrentHashMap<>();
  private final Map<String, ActorRef<SwitchPort.Command>> ports = new ConcurrentHashMap<>();
  private final Map<String, ActorRef<?>> registered = new ConcurrentHashMap<>();
  /** Ends taken down by link faults and not brought back. */
  private final Set<String> linkDown = ConcurrentHashMap.newKeySet();
  private final Set<String> everDown = Collections.synchronizedSet(new LinkedHashSet<>());
  private volatile long seed = 1;
  private final Set<String> stopped = ConcurrentHashMap.newKeySet();
  private final Set<String> killedNodes = ConcurrentHashMap.newKeySet();
  private volatile long heapGrowth = Long.MIN_VALUE;

  private LiveRack(Topology topology, Mode mode, ActorSystem<?> system, ClusterRun cluster, Path runDir) {
    this.topology = topology;
    this.mode = mode;
    this.system = system;
    this.cluster = cluster;
    this.runDir = runDir;
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
    Config base = ConfigFactory.parseMap(overrides).withFallback(ConfigFactory.load());
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
      rack.keeper = Asks.find(system, TimeKeeper.KEY, FIND);
      TimeKeeper.Status joined = Asks.ask(system, rack.keeper, TimeKeeper.AwaitIdle::new, FIND);
      progress.printf("  %d nodes in this JVM, every endpoint's link trained, %d components in model-time"
          + " synchronization%n", topology.nodes().size(), joined.joined());
      rack.awaitControlPlane(progress);
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
   */
  public static LiveRack multiJvm(Topology topology, Scenario.MultiJvm settings, Path runDir, PrintStream progress)
      throws Exception {
    return multiJvm(topology, settings, runDir, progress, Map.of());
  }

  /** @param overrides configuration paths and values for every node JVM (system properties) */
  public static LiveRack multiJvm(Topology topology, Scenario.MultiJvm settings, Path runDir, PrintStream progress,
      Map<String, String> overrides) throws Exception {
    return multiJvm(topology, settings, runDir, progress, overrides, false);
  }

  /**
   * @param needsNetem with {@code settings.network() = namespaces}: a fault degrades with delay or
   *     loss, so the run refuses up front where netem is missing
   */
  public static LiveRack multiJvm(Topology topology, Scenario.MultiJvm settings, Path runDir, PrintStream progress,
      Map<String, String> overrides, boolean needsNetem) throws Exception {
    return multiJvm(topology, settings, runDir, progress, overrides, needsNetem, true);
  }

  /**
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
        settings.sharedMediaDriver(), runDir, progress, overrides, settings.network(), needsNetem, settings.tlsDir());
    LiveRack rack = new LiveRack(topology, Mode.MULTI_JVM, cluster.driver(), cluster, runDir);
    try {
      // The kernel runs in this driver JVM; every node's components find it and join over Artery,
      // so the node JVMs' model time is one, whatever each JVM's speed.
      rack.keeper = synchronize ? RackTime.start(cluster.driver(), topology) : null;
      rack.findAll();
      if (rack.keeper != null) {
        TimeKeeper.Status joined = Asks.ask(rack.system, rack.keeper, TimeKeeper.AwaitIdle::new, FIND);
        progress.printf("  %d components on %d node JVMs in model-time synchronization%n", joined.joined(),
            topology.nodes().size());
      } else {
        progress.printf("  the fabric runs free of the model-time kernel (run.reproducible = false)%n");
      }
      rack.awaitControlPlane(progress);
      rack.heapGrowth = rack.nodesHeapGrowth(progress);
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
  private long nodesHeapGrowth(PrintStream progress) {
    long sum = 0;
    for (NodeSpec n : topology.nodes()) {
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
   * Bytes of heap the rack's components hold: used heap after a GC once every link trained and the
   * control plane booted, minus the same with the actor system up and no component spawned; in a
   * multi-JVM rack, summed over the node JVMs (each measures its own).
   */
  @Override
  public java.util.OptionalLong heapGrowth() {
    return heapGrowth == Long.MIN_VALUE ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(heapGrowth);
  }

  @Override
  public void holdModelTime(long until) throws Exception {
    if (keeper != null) {
      // Everything before the hold runs to completion first; the run's wall limit bounds it.
      Asks.<TimeKeeper.Command, TimeKeeper.Status>ask(system, keeper, r -> new TimeKeeper.HoldBefore(until, r),
          Duration.ofMinutes(30));
    }
  }

  @Override
  public void confirmInputs(java.util.Collection<String> endpointIds) throws Exception {
    if (keeper == null) {
      return;
    }
    for (String id : endpointIds) {
      confirm(id);
    }
  }

  /** Has kernel member {@code member} (an endpoint, or a port "switch.port") report to the keeper. */
  private void confirm(String member) throws Exception {
    ActorRef<PortMessage> ref = LinkSpec.portOf(member) == null ? endpoint(member).unsafeUpcast()
        : port(member).unsafeUpcast();
    Asks.<PortMessage, TimeKeeper.Confirmed>ask(system, ref, TimeKeeper.Confirm::new, ASK);
  }

  @Override
  public long quietModelTime() throws Exception {
    if (keeper == null) {
      return -1;
    }
    return Asks.<TimeKeeper.Command, TimeKeeper.Status>ask(system, keeper, TimeKeeper.AwaitIdle::new,
        Duration.ofMinutes(30)).reached();
  }

  @Override
  public void releaseModelTime() {
    if (keeper != null) {
      keeper.tell(new TimeKeeper.Release());
    }
  }

  @Override
  public void limitModelTime(long until) {
    if (keeper != null) {
      keeper.tell(new TimeKeeper.Limit(until));
    }
  }

  @Override
  public Optional<TimeKeeper.Status> timeStatus() throws Exception {
    if (keeper == null) {
      return Optional.empty();
    }
    return Optional.of(Asks.ask(system, keeper, TimeKeeper.GetStatus::new, FIND));
  }

  private void findAll() throws Exception {
    for (EndpointSpec e : topology.endpoints()) {
      endpoints.put(e.id(), cluster != null ? cluster.endpoint(e.id())
          : Asks.find(system, ComponentKeys.endpoint(e.id()), FIND));
    }
    for (SwitchSpec s : topology.switches()) {
      switches.put(s.id(), Asks.find(system, ComponentKeys.switchChip(s.id()), FIND));
    }
    for (EndpointSpec e : topology.endpoints()) {
      if (topology.linkAt(e.id()).isPresent()) {
        Asks.awaitLinkActive(system, endpoints.get(e.id()), FIND);
      }
    }
  }

  /**
   * With a management-host pair, waits until its boot (Figure 4) has paired the master with its
   * backup: before that the devices may sit in the backup's VS2, out of the master's reach, and a
   * kill of the master would find no backup. A rack of such a topology always keeps a journal
   * (here in one JVM, through {@code rack node} in node JVMs), so the pair always boots; without
   * a control-plane section nothing waits.
   */
  private void awaitControlPlane(PrintStream progress) throws Exception {
    if (topology.controlPlane() == null) {
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

  @Override
  public Topology topology() {
    return topology;
  }

  @Override
  public Mode mode() {
    return mode;
  }

  @Override
  public ActorSystem<?> system() {
    return system;
  }

  @Override
  public Path runDir() {
    return runDir;
  }

  @Override
  public ActorRef<MemoryEndpoint.Command> endpoint(String id) {
    ActorRef<MemoryEndpoint.Command> ref = endpoints.get(id);
    if (ref == null) {
      throw new IllegalArgumentException("no endpoint '" + id + "' (endpoints: " + endpoints.keySet() + ")");
    }
    return ref;
  }

  @Override
  public ActorRef<SwitchChip.Command> switchChip(String id) {
    ActorRef<SwitchChip.Command> ref = switches.get(id);
    if (ref == null) {
      throw new IllegalArgumentException("no switch '" + id + "' (switches: " + switches.keySet() + ")");
    }
    return ref;
  }

  @Override
  public ActorRef<SwitchPort.Command> port(String end) throws Exception {
    ActorRef<SwitchPort.Command> known = ports.get(end);
    if (known != null) {
      return known;
    }
    String sw = LinkSpec.componentOf(end);
    String name = LinkSpec.portOf(end);
    PortConfig p = topology.switchSpec(sw).flatMap(s -> s.port(name))
        .orElseThrow(() -> new IllegalArgumentException("no switch port '" + end + "'"));
    SwitchChip.PortReply reply = Asks.<SwitchChip.Command, SwitchChip.PortReply>ask(system, switchChip(sw),
        r -> new SwitchChip.PortRef(p.number(), r), ASK);
    if (reply.port() == null) {
      throw new IllegalStateException("switch " + sw + " runs no actor for port " + name);
    }
    ports.put(end, reply.port());
    return reply.port();
  }

  @Override
  public void register(String id, ActorRef<?> actor) {
    registered.put(id, actor);
  }

  @Override
  public Optional<ActorRef<?>> actor(String id) {
    if (registered.containsKey(id)) {
      return Optional.of(registered.get(id));
    }
    if (endpoints.containsKey(id)) {
      return Optional.of(endpoints.get(id));
    }
    return Optional.ofNullable(switches.get(id));
  }

  @Override
  public void setLink(String end, boolean up, long modelAt) throws Exception {
    long at = Math.max(0, modelAt);
    linkSide(end).tell(new LinkPort.SetLink(up, at, system));
    String partner = topology.linkAt(end).map(l -> l.other(end)).orElse(null);
    if (up) {
      linkDown.remove(end);
    } else {
      linkDown.add(end);
      everDown.add(end);
      if (partner != null) {
        everDown.add(partner);
        awaitDown(end, partner, LINK_DOWN_TIMEOUT);
      }
    }
  }

  /** The link side of link end {@code end}: an endpoint's or a switch port's. */
  private ActorRef<LinkPort.Command> linkSide(String end) throws Exception {
    return LinkSpec.portOf(end) == null ? LinkPort.of(endpoint(end)) : LinkPort.of(port(end));
  }

  @Override
  public void injectLinkErrors(String end, LinkErrors errors) throws Exception {
    Asks.<LinkPort.Command, LinkErrors>ask(system, linkSide(end), r -> new LinkPort.InjectLinkErrors(errors, r), ASK);
    everDown.add(end);
    topology.linkAt(end).ifPresent(l -> everDown.add(l.other(end)));
  }

  @Override
  public long seed() {
    return seed;
  }

  /** The scenario's seed, for what the run draws at random (injected link errors). */
  public void seed(long seed) {
    this.seed = seed;
  }

  @Override
  public void holdFrom(long modelAt) throws Exception {
    List<ActorRef<MemoryEndpoint.Command>> endpoints = new ArrayList<>();
    List<ActorRef<SwitchPort.Command>> ports = new ArrayList<>();
    if (keeper != null) {
      // The fabric runs under the kernel: holding it at a model time is the kernel's limit (a
      // link-level horizon would release held TLPs outside the kernel's rounds).
      if (modelAt == Long.MAX_VALUE) {
        keeper.tell(new TimeKeeper.Release());
      } else {
        keeper.tell(new TimeKeeper.Limit(modelAt));
      }
    }
    for (LinkSpec l : keeper != null ? List.<LinkSpec>of() : topology.links()) {
      for (String end : List.of(l.a(), l.b())) {
        if (!reachable(LinkSpec.componentOf(end))) {
          continue; // a stopped end or one on a killed node sends nothing
        }
        if (LinkSpec.portOf(end) == null) {
          endpoints.add(endpoint(end));
        } else {
          ports.add(port(end));
        }
      }
    }
    List<ActorRef<ManagementHost.Command>> mhs = new ArrayList<>();
    List<ActorRef<ComputeHost.Command>> chs = new ArrayList<>();
    GlobalMemorySpec spec = topology.globalMemorySpec();
    if (spec != null && spec.managementHost() != null) {
      if (reachable(spec.managementHost())) {
        mhs.add(Asks.find(system, ComponentKeys.managementHost(spec.managementHost()), ASK));
      }
      for (String ch : spec.computeHosts()) {
        if (reachable(ch)) {
          chs.add(Asks.find(system, ComponentKeys.computeHost(ch), ASK));
        }
      }
    }
    RackHorizon.holdFrom(system, new RackHorizon.Members(endpoints, ports, List.of(), mhs, chs), modelAt, ASK);
  }

  /**
   * Waits until neither end of the link is active: the partner has taken the down. Without this,
   * requests the run issues next (stamped after the fault) could cross the link ahead of the
   * partner's PhysicalDown, and its model clock would pass the fault's time before it noticed.
   */
  private void awaitDown(String end, String partner, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      DataLinkState a = stateOf(end);
      DataLinkState b = stateOf(partner);
      if (a != DataLinkState.DL_ACTIVE && b != DataLinkState.DL_ACTIVE) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the link " + end + " -- " + partner + " did not go down within " + timeout
            + " (" + a + ", " + b + ")");
      }
      Thread.sleep(5); // polling two ends' state: a link end has no request that answers on down
    }
  }

  /** An end's link state; an end that can no longer answer counts as down. */
  private DataLinkState stateOf(String end) throws Exception {
    String owner = LinkSpec.portOf(end) == null ? end : LinkSpec.componentOf(end);
    if (!reachable(owner)) {
      return DataLinkState.DL_INACTIVE;
    }
    return LinkSpec.portOf(end) == null ? endpointStats(end).link().state() : portStats(end).state();
  }

  @Override
  public void awaitLinkUp(String end, Duration timeout) throws Exception {
    // An endpoint says when its link is up; a switch port has no such request, so for a port
    // end the partner is asked if it is an endpoint, else the port's state is polled.
    String partner = topology.linkAt(end).map(l -> l.other(end)).orElse(end);
    String endpointEnd = LinkSpec.portOf(end) == null ? end : LinkSpec.portOf(partner) == null ? partner : null;
    if (endpointEnd != null) {
      Asks.awaitLinkActive(system, endpoint(endpointEnd), timeout);
      return;
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      DataLinkState a = portStats(end).state();
      DataLinkState b = portStats(partner).state();
      if (a == DataLinkState.DL_ACTIVE && b == DataLinkState.DL_ACTIVE) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the link " + end + " -- " + partner + " did not come up within " + timeout
            + " (" + a + ", " + b + ")");
      }
      Thread.sleep(20); // polling two ports' state: they have no request that answers on link-up
    }
  }

  @Override
  public void stop(String id, long modelAt) throws Exception {
    ActorRef<?> ref = actor(id).orElseThrow(() -> new IllegalArgumentException("no actor '" + id + "' to stop"));
    if (modelAt >= 0) {
      for (String end : endsOf(id)) {
        if (topology.linkAt(end).isPresent()) {
          setLink(end, false, modelAt);
        }
      }
    }
    stopped.add(id);
    for (String end : endsOf(id)) {
      everDown.add(end);
      topology.linkAt(end).ifPresent(l -> everDown.add(l.other(end)));
    }
    // The classic stop works on any actor, local or remote (a Terminate system message).
    system.classicSystem().stop(Adapter.toClassic(ref));
  }

  @Override
  public void killNode(String node, long modelAt) throws Exception {
    if (cluster == null) {
      throw new IllegalStateException("kill-node needs a multi-jvm run: this rack runs in one JVM");
    }
    killedNodes.add(node);
    List<String> members = new ArrayList<>();
    for (Component c : topology.placedOn(node)) {
      for (String end : endsOf(c.id())) {
        // At a model time the links go down then, as the power of the node's hosts and switches
        // fails: each partner takes the down at that time, on every run alike. At a wall time
        // see below (without a kernel the partners learn of the death from cluster membership).
        if (modelAt >= 0 && topology.linkAt(end).isPresent()) {
          setLink(end, false, modelAt);
        }
        everDown.add(end);
        topology.linkAt(end).ifPresent(l -> everDown.add(l.other(end)));
      }
      members.addAll(endsOf(c.id())); // the ids it joined the kernel under
    }
    if (modelAt >= 0 && keeper != null) {
      // Each dying member reports its last sends, and the rack is held until they have all
      // arrived: the kernel then forgets the members with every count exact.
      for (String member : members) {
        confirm(member);
      }
      holdModelTime(modelAt);
    } else if (keeper != null) {
      // At a wall time under the kernel, where no silence takes a link down: the node's
      // components are stopped first, so each link goes down at its end's own clock (a stopping
      // port says so to its partner), and the keeper goes on without them as they stop.
      for (Component c : topology.placedOn(node)) {
        actor(c.id()).ifPresent(ref -> system.classicSystem().stop(Adapter.toClassic(ref)));
      }
      for (String end : members) {
        // The dying ends count as down (their node is marked killed): this waits for the partners.
        String partner = topology.linkAt(end).map(l -> l.other(end)).orElse(null);
        if (partner != null) {
          awaitDown(end, partner, LINK_DOWN_TIMEOUT);
        }
      }
    }
    cluster.nodes().kill(node);
    if (keeper != null && modelAt >= 0) {
      keeper.tell(new TimeKeeper.Forget(List.copyOf(members)));
    }
    // The harness that killed it downs it at once, rather than leave it to the split-brain
    // resolver's stable-after: membership is how its partners learn of the death (a backup's
    // death watch on a dead master), and a death is not to be confused with a stall.
    akka.cluster.typed.Cluster membership = akka.cluster.typed.Cluster.get(cluster.driver());
    for (akka.cluster.Member m : membership.state().getMembers()) {
      if (m.getRoles().contains(node)) { // every node JVM carries its node name as a role
        membership.manager().tell(akka.cluster.typed.Down.apply(m.address()));
      }
    }
  }

  /**
   * A cut between the nodes of the management-host pair reaches the model at once: the harness
   * made it, so the hosts hear it from the harness rather than guess it from the wall clock.
   */
  private void tellPairOfCut(String a, String b, boolean cut) throws Exception {
    var pair = topology.controlPlane();
    if (pair == null) {
      return;
    }
    String masterNode = topology.endpoint(pair.master()).map(e -> e.node()).orElse("");
    String backupNode = topology.endpoint(pair.backup()).map(e -> e.node()).orElse("");
    boolean between = (a.equals(masterNode) && b.equals(backupNode)) || (a.equals(backupNode) && b.equals(masterNode));
    if (!between) {
      return;
    }
    for (String host : List.of(pair.master(), pair.backup())) {
      Asks.find(system, ComponentKeys.controlPlaneHost(host), FIND).tell(new ControlPlaneHost.PeerCut(cut));
    }
  }

  @Override
  public void pauseNode(String node) throws Exception {
    if (cluster == null) {
      throw new IllegalStateException("pause-node needs a multi-jvm run: this rack runs in one JVM");
    }
    cluster.nodes().pause(node);
  }

  @Override
  public void resumeNode(String node) throws Exception {
    if (cluster == null) {
      throw new IllegalStateException("pause-node needs a multi-jvm run: this rack runs in one JVM");
    }
    cluster.nodes().resume(node);
  }

  @Override
  public void partition(String a, String b, boolean cut) throws Exception {
    Netns netns = netns("partition");
    if (cut) {
      netns.cut(a, b);
    } else {
      netns.heal(a, b);
    }
    tellPairOfCut(a, b, cut);
  }

  @Override
  public void degrade(String node, NetnsPlan.Degradation degradation) throws Exception {
    Netns netns = netns("degrade");
    if (degradation == null) {
      netns.restore(node);
    } else {
      netns.degrade(node, degradation);
    }
  }

  private Netns netns(String kind) {
    if (cluster == null || cluster.netns().isEmpty()) {
      throw new IllegalStateException(kind + " needs node JVMs in network namespaces (multi-jvm { network ="
          + " namespaces }): this rack runs " + (cluster == null ? "in one JVM" : "on loopback"));
    }
    return cluster.netns().get();
  }

  /** The link ends a component owns: an endpoint's own, or each of a switch's ports. */
  Set<String> endsOf(String id) {
    Set<String> ends = new LinkedHashSet<>();
    Optional<SwitchSpec> sw = topology.switchSpec(id);
    if (sw.isPresent()) {
      sw.get().ports().forEach(p -> ends.add(LinkSpec.end(id, p.name())));
    } else if (topology.endpoint(id).isPresent()) {
      ends.add(id);
    }
    return ends;
  }

  @Override
  public boolean reachable(String id) {
    if (stopped.contains(id)) {
      return false;
    }
    Optional<Component> c = topology.component(id);
    return c.isEmpty() || !killedNodes.contains(c.get().node());
  }

  @Override
  public boolean isDown(String end) {
    if (linkDown.contains(end) || !reachable(LinkSpec.componentOf(end))) {
      return true;
    }
    String partner = topology.linkAt(end).map(l -> l.other(end)).orElse(null);
    return partner != null && (linkDown.contains(partner) || !reachable(LinkSpec.componentOf(partner)));
  }

  @Override
  public Set<String> faultedEnds() {
    synchronized (everDown) {
      return Set.copyOf(everDown);
    }
  }

  @Override
  public Set<String> failedComponents() {
    Set<String> failed = new HashSet<>(stopped);
    for (String node : killedNodes) {
      topology.placedOn(node).forEach(c -> failed.add(c.id()));
    }
    return Set.copyOf(failed);
  }

  @Override
  public EndpointStats endpointStats(String id) throws Exception {
    return Asks.ask(system, endpoint(id), MemoryEndpoint.GetStats::new, ASK);
  }

  @Override
  public PortStats portStats(String end) throws Exception {
    return Asks.<SwitchPort.Command, PortStats>ask(system, port(end), SwitchPort.GetStats::new, ASK);
  }

  /** Stops every node and the actor system; the node JVMs too in a multi-JVM run. */
  @Override
  public void close() {
    if (cluster != null) {
      cluster.close();
      return;
    }
    system.terminate();
    try {
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      // the JVM's own shutdown finishes it; nothing else holds resources here
    }
  }
}
