package io.rackfabric.loadtests.scenario.api;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import io.rackfabric.loadtests.scenario.language.Mode;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.link.LinkErrors;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.stats.PortStats;
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.fabric.switchchip.SwitchPort;
import io.rackfabric.loadtests.harness.NetnsPlan;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A rack as a scenario run sees it: every component started and found, every link trained. What
 * faults do to it goes through here, so it also knows what is down: link ends a fault took down,
 * components stopped, nodes killed. Safe to use from several threads (wall-time faults run on
 * their own).
 */
public interface RunningRack {

  Topology topology();

  Mode mode();

  /**
   * The actor system to spawn host software in and to ask from. Single JVM: the system that runs
   * every component. Multi-JVM: the driver, a cluster member that runs no component; actors
   * spawned here reach the components over Artery like any other member.
   */
  ActorSystem<?> system();

  /** The run's folder (node logs, the topology file handed to node JVMs). */
  Path runDir();

  ActorRef<MemoryEndpoint.Command> endpoint(String id);

  /**
   * Holds the model-time kernel before {@code until} and returns once everything before it is
   * done; {@link #releaseModelTime} lets it go on. Without a kernel, nothing happens.
   */
  default void holdModelTime(long until) throws Exception {}

  /**
   * Returns once the kernel knows every model-time event that the commands just sent to these
   * endpoints scheduled (see {@link io.rackfabric.fabric.time.TimeKeeper.Confirm}).
   */
  default void confirmInputs(java.util.Collection<String> endpointIds) throws Exception {}

  default void releaseModelTime() throws Exception {}

  /** Lets the kernel run up to {@code until} and no further, without waiting. */
  default void limitModelTime(long until) throws Exception {}

  /**
   * Under the model-time kernel: waits until nothing is pending anywhere and returns the latest
   * model time a component has handled an event at, the least a driver may stamp what it puts
   * into the rack next. -1 without a kernel.
   */
  default long quietModelTime() throws Exception {
    return -1;
  }

  /**
   * The model time the run's host software starts from: the rack's quiet instant when first
   * asked, the same for every later caller. Each of the scenario's workloads and loan steps holds
   * the rack there while it hands its first inputs over, so none of them waits for a quiet that
   * another's pending inputs keep away. At least 0.
   */
  default long hostStartModelTime() throws Exception {
    return Math.max(0, quietModelTime());
  }

  /** The model-time kernel's account of the run so far, when the rack runs under one. */
  default Optional<io.rackfabric.fabric.time.TimeKeeper.Status> timeStatus() throws Exception {
    return Optional.empty();
  }

  ActorRef<SwitchChip.Command> switchChip(String id);

  /** The actor of a switch port, {@code "switch.port"}. */
  ActorRef<SwitchPort.Command> port(String end) throws Exception;

  /** Makes an actor nameable by {@code id} for {@code stop-actor} and for invariants. */
  void register(String id, ActorRef<?> actor);

  /** A registered actor, or a component's actor (an endpoint or a switch chip). */
  Optional<ActorRef<?>> actor(String id);

  /**
   * Takes the link at {@code end} (an endpoint id or {@code switch.port}) down, or brings it back
   * up, stamped with model time {@code modelAt} (0: the end's own clock). A down returns once
   * both ends have it.
   */
  void setLink(String end, boolean up, long modelAt) throws Exception;

  /**
   * Makes the link end {@code end} drop, corrupt or delay the TLPs it transmits (see {@link
   * LinkErrors}); returns once the end has it. The link counts as faulted from then on: TLPs lost
   * when it goes down past the replay limit are lost at its ends.
   */
  void injectLinkErrors(String end, LinkErrors errors) throws Exception;

  /** The run's seed (the scenario's): what injected errors draw from. */
  long seed();

  /**
   * Makes every link end of the rack hold TLPs that would start on its wire at or after model time
   * {@code modelAt} ({@code Long.MAX_VALUE}: hold nothing); returns once every reachable end has
   * it. A run holds at its next model-time fault, so that nothing stamped after the fault crosses
   * a link before the fault is applied, however far ahead host software ran.
   */
  void holdFrom(long modelAt) throws Exception;

  /** Waits until the link at {@code end} is up again (trained), at most {@code timeout}. */
  void awaitLinkUp(String end, Duration timeout) throws Exception;

  /**
   * Stops a component or registered actor, as a crash would. With {@code modelAt >= 0} its links
   * go down at that model time first, so that its partners see the surprise down stamped then.
   */
  void stop(String id, long modelAt) throws Exception;

  /**
   * Kills a node's JVM at once (SIGKILL). Multi-JVM only. At a model time ({@code modelAt >= 0})
   * the links of its components go down at that time first; at a wall time ({@code -1}) their
   * partners notice the silence.
   */
  void killNode(String node, long modelAt) throws Exception;

  /**
   * Starts a killed node's JVM again with its old arguments and data folder (its journal): at model
   * time {@code modelAt} under the model-time kernel (its components taken back in then), or at a
   * wall time ({@code modelAt} -1) free of it. Multi-JVM only. Returns what it restarted.
   */
  default String restartNode(String node, long modelAt) throws Exception {
    throw new IllegalStateException("restart-node needs a multi-jvm run");
  }

  /**
   * The take-overs made by management hosts whose node was killed since (read from each as the
   * harness killed its node; a host's take-overs are lost with its JVM), in the order killed.
   */
  default java.util.List<io.rackfabric.host.controlplane.TakeoverBreakdown> takeoversOfKilledHosts() {
    return java.util.List.of();
  }

  /** Freezes a node's JVM (SIGSTOP) until {@link #resumeNode}. Multi-JVM only. */
  void pauseNode(String node) throws Exception;

  /** Lets a frozen node's JVM run on (SIGCONT). */
  void resumeNode(String node) throws Exception;

  /**
   * Pauses a node in the model (the rack held before {@code from}): its components handle nothing
   * over [{@code from}, {@code until}) of model time, and what falls due meanwhile, theirs or sent to
   * them, is handled at {@code until}. Under the model-time kernel only, in one JVM or several.
   */
  default void pauseNodeAt(String node, long from, long until) throws Exception {
    throw new UnsupportedOperationException("a pause at a model time needs the model-time kernel");
  }

  /**
   * Cuts the network between nodes {@code a} and {@code b} (both ways), or heals it, and tells the
   * management-host pair when they are its nodes ({@link #tellPairOfCut}). Only runs whose node
   * JVMs are in network namespaces ({@code multi-jvm.network = namespaces}).
   */
  void partition(String a, String b, boolean cut) throws Exception;

  /**
   * Tells the management-host pair that the nodes {@code a} and {@code b} were cut from each other
   * or healed, when the pair's two hosts run on them; nothing otherwise. A partition at a model
   * time, which cuts only the links between the nodes, says so through here, with its model time
   * {@code at} (-1: a wall-time cut). Returns, at a heal, "; HOST stepped down: WHY" for each host
   * of the pair that learned it was fenced on the switch while cut off, else "".
   */
  String tellPairOfCut(String a, String b, boolean cut, long at) throws Exception;

  /**
   * Degrades every link out of {@code node}'s namespace, or with {@code null} restores them.
   * Namespace runs only.
   */
  void degrade(String node, NetnsPlan.Degradation degradation) throws Exception;

  /** Whether a component (or registered actor) can still answer: not stopped, its node alive. */
  boolean reachable(String id);

  /** Whether the link at {@code end} is down because of a fault (at either end, or a failed component). */
  boolean isDown(String end);

  /** Every link end a fault took down at some point of the run, with its partner. */
  Set<String> faultedEnds();

  /** Components stopped or on killed nodes. */
  Set<String> failedComponents();

  EndpointStats endpointStats(String id) throws Exception;

  PortStats portStats(String end) throws Exception;

  /**
   * Bytes of heap the rack's components hold, when the rack measured it (see {@code LiveRack});
   * empty by default.
   */
  default OptionalLong heapGrowth() {
    return OptionalLong.empty();
  }
}
