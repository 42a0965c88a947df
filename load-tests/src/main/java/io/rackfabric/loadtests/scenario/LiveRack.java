package io.rackfabric.loadtests.scenario;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Adapter;
import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.LinkSpec;
import io.rackfabric.cluster.topology.SwitchSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.link.LinkErrors;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.stats.PortStats;
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.fabric.switchchip.SwitchPort;
import io.rackfabric.fabric.time.TimeKeeper;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.loadtests.harness.ClusterRun;
import io.rackfabric.loadtests.harness.NetnsPlan;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import io.rackfabric.loadtests.scenario.language.Mode;
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
 * starts it): its components by name, the model-time kernel's holds ({@link RackClock}), its
 * links ({@link RackLinks}), and the node faults ({@link NodeFaults}) and their traces ({@link
 * FaultedEnds}) the invariants read. {@link #close} stops everything it started.
 */
public final class LiveRack implements RunningRack, AutoCloseable {

  private static final Duration FIND = Duration.ofSeconds(30);
  private static final Duration ASK = Duration.ofSeconds(5);

  /** The run's model-time kernel, when the rack runs under one (its keeper set by {@link RackStart}). */
  final RackClock clock;
  private final RackLinks links;
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
    this.clock = new RackClock(system, this::member);
    this.links = new RackLinks(this, faults);
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
    clock.hold(until);
  }

  @Override
  public void confirmInputs(java.util.Collection<String> endpointIds) throws Exception {
    clock.confirmAll(endpointIds);
  }

  @Override
  public long hostStartModelTime() throws Exception {
    return clock.hostStart();
  }

  @Override
  public long quietModelTime() throws Exception {
    return clock.quiet();
  }

  @Override
  public void releaseModelTime() {
    clock.release();
  }

  @Override
  public void limitModelTime(long until) {
    clock.limit(until);
  }

  @Override
  public Optional<TimeKeeper.Status> timeStatus() throws Exception {
    return clock.status();
  }

  /** A kernel member by its id: an endpoint, or a port "switch.port". */
  private ActorRef<PortMessage> member(String id) throws Exception {
    return LinkSpec.portOf(id) == null ? endpoint(id).unsafeUpcast() : port(id).unsafeUpcast();
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
    if (ref == null && topology.switchSpec(id).isPresent()) {
      try { // a chip of a node started again: found anew
        ref = Asks.find(system, ComponentKeys.switchChip(id), FIND);
      } catch (Exception e) {
        throw new IllegalStateException("switch '" + id + "' not found again: " + e.getMessage(), e);
      }
      switches.put(id, ref);
    }
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

  /**
   * Under the kernel, has every running component's members report to the keeper (see {@link
   * FaultSteps#applyModelFaults}); returns those that did not answer.
   */
  List<String> confirmRunningMembers() throws Exception {
    List<String> ids = new ArrayList<>();
    for (String id : topology.componentIds()) {
      if (faults.reachable(id)) {
        ids.addAll(faults.endsOf(id));
      }
    }
    return clock.confirmTogether(ids);
  }

  @Override
  public void setLink(String end, boolean up, long modelAt) throws Exception {
    links.setLink(end, up, modelAt);
  }

  @Override
  public void injectLinkErrors(String end, LinkErrors errors) throws Exception {
    links.injectLinkErrors(end, errors);
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
    links.holdFrom(modelAt);
  }

  /** Waits until neither end of the link is active (see {@link RackLinks#awaitDown}). */
  void awaitDown(String end, String partner) throws Exception {
    links.awaitDown(end, partner);
  }

  @Override
  public void awaitLinkUp(String end, Duration timeout) throws Exception {
    links.awaitLinkUp(end, timeout);
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
      clock.settleBeforeStop(members, modelAt);
    }
    faults.stopped(id);
    // The classic stop works on any actor, local or remote (a Terminate system message).
    system.classicSystem().stop(Adapter.toClassic(ref));
    if (modelAt >= 0) {
      clock.forget(members);
    }
  }

  @Override
  public void killNode(String node, long modelAt) throws Exception {
    nodeFaults.killNode(node, modelAt);
  }

  @Override
  public List<io.rackfabric.host.controlplane.TakeoverBreakdown> takeoversOfKilledHosts() {
    return nodeFaults.takeoversOfKilledHosts();
  }

  @Override
  public String restartNode(String node, long modelAt) throws Exception {
    String started = nodeFaults.restartNode(node, endpoints, modelAt);
    // The node's chips run in a new JVM: the old refs are dead. Found anew when next asked for.
    for (var c : topology.placedOn(node)) {
      if (switches.remove(c.id()) != null) {
        ports.keySet().removeIf(end -> LinkSpec.componentOf(end).equals(c.id()));
      }
    }
    return started;
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
    if (!clock.running()) {
      throw new IllegalStateException("pause-node " + node + " at a model time needs the model-time kernel;"
          + " this run's fabric runs free of it (run.reproducible = false)");
    }
    nodeFaults.pauseNodeAt(node, from, until);
  }

  @Override
  public void partition(String a, String b, boolean cut) throws Exception {
    nodeFaults.partition(a, b, cut);
  }

  @Override
  public String tellPairOfCut(String a, String b, boolean cut, long at) throws Exception {
    return nodeFaults.tellPairOfCut(a, b, cut, at);
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
    clock.freeze();
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
