package io.rackfabric.loadtests.scenario;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Adapter;
import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.loadtests.scenario.language.Mode;
import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.LinkSpec;
import io.rackfabric.cluster.topology.SwitchSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.link.LinkErrors;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.port.LinkPort;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.stats.PortStats;
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.fabric.switchchip.SwitchPort;
import io.rackfabric.fabric.time.TimeKeeper;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.loadtests.harness.ClusterRun;
import io.rackfabric.loadtests.harness.NetnsPlan;
import io.rackfabric.loadtests.harness.RackHorizon;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The {@link RunningRack} of a scenario run, in one JVM or one JVM per node ({@link RackStart}
 * starts it): its components by name, the model-time kernel's holds, link faults, and the node
 * faults ({@link NodeFaults}) and their traces ({@link FaultedEnds}) the invariants read. {@link
 * #close} stops everything it started.
 */
public final class LiveRack implements RunningRack, AutoCloseable {

  /** {@link #hostStartModelTime}, once asked; -1 before. */
  private long hostStart = -1;

  private static final Duration FIND = Duration.ofSeconds(30);
  private static final Duration ASK = Duration.ofSeconds(5);
  /** A PhysicalDown is one message away; this much wall time means the partner is stuck. */
  private static final Duration LINK_DOWN_TIMEOUT = Duration.ofSeconds(10);

  /** The run's model-time kernel, when the rack runs under one (set by {@link RackStart}). */
  ActorRef<TimeKeeper.Command> keeper;
  private final Topology topology;
  private final Mode mode;
  private final ActorSystem<?> system;
  private final ClusterRun cluster;
  private final Path runDir;
  private final Map<String, ActorRef<MemoryEndpoint.Command>> endpoints = new ConcurrentHashMap<>();
  private final Map<String, ActorRef<SwitchChip.Command>> switches = new ConcurrentHashMap<>();
  private final Map<String, ActorRef<SwitchPort.Command>> ports = new ConcurrentHashMap<>();
  private final Map<String, ActorRef<?>> registered = new ConcurrentHashMap<>();
  private final FaultedEnds faults;
  private final NodeFaults nodeFaults;
  private volatile long seed = 1;
  /** Bytes of heap the components hold (set by {@link RackStart}); Long.MIN_VALUE when unmeasured. */
  volatile long heapGrowth = Long.MIN_VALUE;

  LiveRack(Topology topology, Mode mode, ActorSystem<?> system, ClusterRun cluster, Path runDir) {
    this.topology = topology;
    this.mode = mode;
    this.system = system;
    this.cluster = cluster;
    this.runDir = runDir;
    this.faults = new FaultedEnds(topology);
    this.nodeFaults = new NodeFaults(this, cluster, faults);
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
  void confirm(String member) throws Exception {
    ActorRef<PortMessage> ref = LinkSpec.portOf(member) == null ? endpoint(member).unsafeUpcast()
        : port(member).unsafeUpcast();
    Asks.<PortMessage, TimeKeeper.Confirmed>ask(system, ref, TimeKeeper.Confirm::new, ASK);
  }

  @Override
  public synchronized long hostStartModelTime() throws Exception {
    if (hostStart < 0) {
      hostStart = Math.max(0, quietModelTime());
    }
    return hostStart;
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

  /** Finds every endpoint and switch, and waits until each endpoint's link trained. */
  void findAll() throws Exception {
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
      faults.linkUp(end);
    } else {
      faults.linkDown(end);
      if (partner != null) {
        awaitDown(end, partner);
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
    faults.touched(end);
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
    if (keeper != null) {
      // The fabric runs under the kernel: holding it at a model time is the kernel's limit (a
      // link-level horizon would release held TLPs outside the kernel's rounds), and host software
      // paces itself by wakes of its endpoint, which the limit holds too.
      if (modelAt == Long.MAX_VALUE) {
        keeper.tell(new TimeKeeper.Release());
      } else {
        keeper.tell(new TimeKeeper.Limit(modelAt));
      }
      return;
    }
    // Free-running: every link end, and through its endpoint the host software that is its guest.
    List<ActorRef<LinkPort.Command>> ends = new ArrayList<>();
    for (LinkSpec l : topology.links()) {
      for (String end : List.of(l.a(), l.b())) {
        if (!reachable(LinkSpec.componentOf(end))) {
          continue; // a stopped end or one on a killed node sends nothing
        }
        ends.add(linkSide(end));
      }
    }
    RackHorizon.holdFrom(system, ends, modelAt, ASK);
  }

  /**
   * Waits until neither end of the link is active: the partner has taken the down. Without this,
   * requests the run issues next (stamped after the fault) could cross the link ahead of the
   * partner's PhysicalDown, and its model clock would pass the fault's time before it noticed.
   */
  void awaitDown(String end, String partner) throws Exception {
    Duration timeout = LINK_DOWN_TIMEOUT;
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

  private static boolean trained(DataLinkState s) {
    return s == DataLinkState.DL_ACTIVE || s == DataLinkState.DL_PROTECTED;
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
      // Trained: DL_Active, or DL_Protected under a fabric manager, which activates it later in model time.
      if (trained(a) && trained(b)) {
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
    List<String> members = List.copyOf(faults.endsOf(id)); // the ids it joined the kernel under
    if (modelAt >= 0) {
      for (String end : members) {
        if (topology.linkAt(end).isPresent()) {
          setLink(end, false, modelAt);
        }
      }
      settleBeforeStop(members, modelAt);
    }
    faults.stopped(id);
    // The classic stop works on any actor, local or remote (a Terminate system message).
    system.classicSystem().stop(Adapter.toClassic(ref));
    if (modelAt >= 0) {
      forget(members);
    }
  }

  /**
   * Before kernel members stop at model time {@code modelAt}: each reports its last sends and the
   * rack is held until they have all arrived, so that {@link #forget} leaves every count exact.
   * Were they dropped as dead unannounced, their receivers would be balanced leniently and could
   * be handed a live partner's message late (a straggler, at a time that depends on the machine).
   */
  void settleBeforeStop(List<String> members, long modelAt) throws Exception {
    if (keeper == null) {
      return;
    }
    for (String member : members) {
      confirm(member);
    }
    holdModelTime(modelAt);
  }

  /** The kernel goes on without {@code members}, stopped after {@link #settleBeforeStop}. */
  void forget(List<String> members) {
    if (keeper != null) {
      keeper.tell(new TimeKeeper.Forget(List.copyOf(members)));
    }
  }

  @Override
  public void killNode(String node, long modelAt) throws Exception {
    nodeFaults.killNode(node, modelAt);
  }

  @Override
  public void pauseNode(String node) throws Exception {
    nodeFaults.pauseNode(node);
  }

  @Override
  public void resumeNode(String node) throws Exception {
    nodeFaults.resumeNode(node);
  }

  @Override
  public void pauseNodeAt(String node, long from, long until) throws Exception {
    if (keeper == null) {
      throw new IllegalStateException("pause-node " + node + " at a model time needs the model-time kernel;"
          + " this run's fabric runs free of it (run.reproducible = false)");
    }
    nodeFaults.pauseNodeAt(node, from, until);
  }

  /** Pauses kernel member {@code member} (an endpoint, or a port "switch.port") over [from, until). */
  void pause(String member, long from, long until) throws Exception {
    ActorRef<PortMessage> ref = LinkSpec.portOf(member) == null ? endpoint(member).unsafeUpcast()
        : port(member).unsafeUpcast();
    Asks.<PortMessage, TimeKeeper.Confirmed>ask(system, ref, r -> new TimeKeeper.Pause(from, until, r), ASK);
  }

  @Override
  public void partition(String a, String b, boolean cut) throws Exception {
    nodeFaults.partition(a, b, cut);
  }

  @Override
  public void tellPairOfCut(String a, String b, boolean cut) throws Exception {
    nodeFaults.tellPairOfCut(a, b, cut);
  }

  @Override
  public void degrade(String node, NetnsPlan.Degradation degradation) throws Exception {
    nodeFaults.degrade(node, degradation);
  }

  @Override
  public boolean reachable(String id) {
    return faults.reachable(id);
  }

  @Override
  public boolean isDown(String end) {
    return faults.isDown(end);
  }

  @Override
  public Set<String> faultedEnds() {
    return faults.everDown();
  }

  @Override
  public Set<String> failedComponents() {
    return faults.failedComponents();
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
