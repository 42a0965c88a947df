package io.rackfabric.loadtests.scenario;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Adapter;
import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.cluster.topology.Component;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.time.TimeKeeper;
import io.rackfabric.host.controlplane.ControlPlaneClient;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.loadtests.harness.ClusterRun;
import io.rackfabric.loadtests.harness.Netns;
import io.rackfabric.loadtests.harness.NetnsPlan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The faults of a multi-JVM rack's node JVMs: a kill (at a model time under the kernel, exactly
 * then; at a wall time, as it comes), a pause (SIGSTOP and SIGCONT), and, with the nodes in network
 * namespaces, a partition or a degraded network. Each needs the {@link ClusterRun} of the run,
 * but telling the management-host pair of a cut, which a partition at a model time does in any rack.
 */
final class NodeFaults {

  private static final Duration FIND = Duration.ofSeconds(30);
  /** A restarted JVM's start and its components' joining the keeper: wall time, generously. */
  private static final Duration RESTART = Duration.ofMinutes(3);
  /** How long a restarted management host may take to rejoin as backup, in wall time. */
  private static final Duration REJOIN = Duration.ofMinutes(2);
  private static final long REJOIN_POLL_MS = 100;

  private final LiveRack rack;
  private final ClusterRun cluster;
  private final FaultedEnds faults;
  /** Take-overs read from management hosts as their node was killed (see {@link #killNode}). */
  private final List<io.rackfabric.host.controlplane.TakeoverBreakdown> killedHostsTakeovers =
      new java.util.concurrent.CopyOnWriteArrayList<>();

  /** @param cluster the run's node JVMs, null for a rack in one JVM (every JVM or network fault is refused) */
  NodeFaults(LiveRack rack, ClusterRun cluster, FaultedEnds faults) {
    this.rack = rack;
    this.cluster = cluster;
    this.faults = faults;
  }

  void killNode(String node, long modelAt) throws Exception {
    ClusterRun nodes = nodes("kill-node");
    Topology topology = rack.topology();
    keepTakeoversOfHostsOn(node);
    ActorRef<TimeKeeper.Command> keeper = rack.clock.keeper();
    faults.killed(node);
    List<String> members = new ArrayList<>();
    for (Component c : topology.placedOn(node)) {
      for (String end : faults.endsOf(c.id())) {
        // At a model time the links go down then, as the power of the node's hosts and switches
        // fails: each partner takes the down at that time, on every run alike. At a wall time
        // see below (without a kernel the partners learn of the death from cluster membership).
        if (modelAt >= 0 && topology.linkAt(end).isPresent()) {
          rack.setLink(end, false, modelAt);
        }
        faults.touched(end);
      }
      members.addAll(faults.endsOf(c.id())); // the ids it joined the kernel under
    }
    ActorSystem<?> system = rack.system();
    if (modelAt >= 0 && keeper != null) {
      rack.clock.settleBeforeStop(members, modelAt);
    } else if (keeper != null) {
      // At a wall time under the kernel, where no silence takes a link down: the node's
      // components are stopped first, so each link goes down at its end's own clock (a stopping
      // port says so to its partner), and the keeper goes on without them as they stop.
      for (Component c : topology.placedOn(node)) {
        rack.actor(c.id()).ifPresent(ref -> system.classicSystem().stop(Adapter.toClassic(ref)));
      }
      for (String end : members) {
        // The dying ends count as down (their node is marked killed): this waits for the partners.
        String partner = topology.linkAt(end).map(l -> l.other(end)).orElse(null);
        if (partner != null) {
          rack.awaitDown(end, partner);
        }
      }
    }
    nodes.nodes().kill(node);
    if (modelAt >= 0) {
      rack.clock.forget(members);
    }
    // The harness that killed it downs it at once, rather than leave it to the split-brain
    // resolver's stable-after: membership is how its partners learn of the death (a backup's
    // death watch on a dead master), and a death is not to be confused with a stall.
    akka.cluster.typed.Cluster membership = akka.cluster.typed.Cluster.get(nodes.driver());
    for (akka.cluster.Member m : membership.state().getMembers()) {
      if (m.getRoles().contains(node)) { // every node JVM carries its node name as a role
        membership.manager().tell(akka.cluster.typed.Down.apply(m.address()));
      }
    }
  }

  /**
   * Reads the take-overs a management host on {@code node} made, before its JVM dies with them, so
   * that the run's figures give every take-over (a harness reading: the model is not touched).
   */
  private void keepTakeoversOfHostsOn(String node) throws Exception {
    var pair = rack.topology().controlPlane();
    if (pair == null) {
      return;
    }
    for (String host : List.of(pair.master(), pair.backup())) {
      boolean here = rack.topology().component(host).map(c -> c.node().equals(node)).orElse(false);
      if (here && faults.reachable(host)) {
        var ref = Asks.find(rack.system(), ComponentKeys.controlPlaneHost(host), FIND);
        ControlPlaneHost.Takeovers made = Asks.<ControlPlaneHost.Command, ControlPlaneHost.Takeovers>ask(
            rack.system(), ref, ControlPlaneHost.GetTakeovers::new, FIND);
        killedHostsTakeovers.addAll(made.takeovers());
      }
    }
  }

  /** The take-overs of hosts whose node was killed, in the order killed. */
  List<io.rackfabric.host.controlplane.TakeoverBreakdown> takeoversOfKilledHosts() {
    return List.copyOf(killedHostsTakeovers);
  }

  /**
   * Starts {@code node}'s JVM again (killed before) with its old arguments and data folder, finds its
   * endpoints (into {@code endpoints}) and waits until their links trained again. A management host
   * on it finds its journal and rejoins the master as backup (the node's own doing). Under the
   * model-time kernel at model time {@code modelAt} (the rack held there): the keeper is told first
   * that the node's components come back then ({@link RackClock#expectBack}), so it takes each
   * back in with fresh counts and its clock starting at {@code modelAt}, and grants nothing from
   * then on until all have joined: the JVM's start costs wall time, no model time. A wall-time
   * restart ({@code modelAt} -1) runs free of the kernel only.
   */
  String restartNode(String node, java.util.Map<String, ActorRef<io.rackfabric.fabric.endpoint.MemoryEndpoint.Command>>
      endpoints, long modelAt) throws Exception {
    ClusterRun nodes = nodes("restart-node");
    if (rack.clock.running() && modelAt < 0) {
      throw new IllegalStateException("restart-node at a wall time: this run is under the model-time kernel, which"
          + " takes a restarted node's components back in at a model time only: give restart-node a model time");
    }
    if (!faults.isKilled(node)) {
      throw new IllegalStateException("restart-node: node " + node + " was not killed: only a dead node starts again");
    }
    java.util.concurrent.CompletableFuture<TimeKeeper.Back> back = null;
    if (modelAt >= 0 && rack.clock.running()) {
      List<String> members = new ArrayList<>();
      rack.topology().placedOn(node).forEach(c -> members.addAll(faults.endsOf(c.id())));
      back = rack.clock.expectBack(members, modelAt, RESTART);
      if (back.isDone() && back.get().problem() != null) {
        throw new IllegalStateException("restart-node " + node + " at " + modelAt + " ns: " + back.get().problem());
      }
    }
    List<String> found = nodes.restart(node, rack.topology());
    faults.restarted(node);
    if (back != null) {
      TimeKeeper.Back joined = back.get(RESTART.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
      if (joined.problem() != null) {
        throw new IllegalStateException("restart-node " + node + " at " + modelAt + " ns: " + joined.problem());
      }
    }
    for (String id : found) {
      endpoints.put(id, nodes.endpoint(id));
      if (rack.topology().linkAt(id).isPresent()) {
        Asks.awaitLinkActive(nodes.driver(), nodes.endpoint(id), FIND);
      }
    }
    String rejoined = back == null ? "" : awaitRejoin(node);
    return "JVM of " + node + " started again on its data folder; it runs " + rack.topology().placedOn(node).stream()
        .map(c -> c.id()).toList() + (back == null ? "" : ", back in the model-time kernel from " + modelAt + " ns")
        + rejoined;
  }

  /**
   * Under the kernel, with the rack still held at the restart: waits until a management host on
   * {@code node} has rejoined the master as backup (its node's own doing, {@code ControlPlaneRejoin}),
   * so the rejoin is done at the restart's model time on every run rather than wherever the rack
   * got to meanwhile. A harness reading in wall time (the host's role), no model decision. Returns
   * what it found, "" when no host runs on the node.
   */
  private String awaitRejoin(String node) throws Exception {
    var pair = rack.topology().controlPlane();
    if (pair == null) {
      return "";
    }
    StringBuilder out = new StringBuilder();
    for (String host : List.of(pair.master(), pair.backup())) {
      if (!rack.topology().component(host).map(c -> c.node().equals(node)).orElse(false)) {
        continue;
      }
      var ref = Asks.find(rack.system(), ComponentKeys.controlPlaneHost(host), FIND);
      long deadline = System.nanoTime() + REJOIN.toNanos();
      ControlPlaneHost.HostStatus status;
      do {
        status = Asks.<ControlPlaneHost.Command, ControlPlaneHost.HostStatus>ask(rack.system(), ref,
            ControlPlaneHost.GetStatus::new, FIND);
        if (status.role() == ControlPlaneHost.Role.BACKUP) {
          break;
        }
        Thread.sleep(REJOIN_POLL_MS); // the host tells nobody but its rejoiner: polled, as a harness reads
      } while (System.nanoTime() < deadline);
      if (status.role() != ControlPlaneHost.Role.BACKUP) {
        // Released now, the rack would take the rejoin wherever it had got to: a run unlike the others.
        throw new IllegalStateException("restart-node " + node + ": " + host + " is " + status.role() + " after "
            + REJOIN.toSeconds() + " s of wall time, not the master's backup (" + status.detail() + ")");
      }
      out.append("; ").append(host).append(" is BACKUP at lastSeqNr=").append(status.lastSeqNr());
      out.append(awaitDriversReach(host, ref));
    }
    return out.toString();
  }

  /**
   * Waits, the rack still held at the restart, until every running compute host's control-plane
   * driver lists {@code host} at its new address. A driver learns it through the receptionist, in
   * wall time: one that had not yet, when its next request was due, sent it to the dead address,
   * where it was lost and owed to the time keeper for ever (the rack stalled there, on a loaded
   * machine only). A harness reading, no model decision.
   */
  private String awaitDriversReach(String host, ActorRef<ControlPlaneHost.Command> ref) throws Exception {
    List<String> drivers = new ArrayList<>();
    for (String ch : rack.topology().computeHostIds()) {
      if (!faults.reachable(ch)) {
        continue;
      }
      var client = Asks.find(rack.system(), ComponentKeys.controlPlaneClient(ch), FIND);
      Asks.<ControlPlaneClient.Command, ControlPlaneClient.PagesDone>ask(rack.system(), client,
          r -> new ControlPlaneClient.AwaitHost(ref, r), REJOIN);
      drivers.add(ch);
    }
    return drivers.isEmpty() ? "" : " (the drivers of " + String.join(", ", drivers) + " reach it there)";
  }

  void pauseNode(String node) throws Exception {
    nodes("pause-node").nodes().pause(node);
  }

  void resumeNode(String node) throws Exception {
    nodes("pause-node").nodes().resume(node);
  }

  /** Each running component of {@code node} is paused in the model over [from, until): any mode. */
  void pauseNodeAt(String node, long from, long until) throws Exception {
    for (Component c : rack.topology().placedOn(node)) {
      if (!faults.reachable(c.id())) {
        continue;
      }
      for (String member : faults.endsOf(c.id())) {
        rack.clock.pause(member, from, until);
      }
    }
  }

  void partition(String a, String b, boolean cut) throws Exception {
    Netns netns = netns("partition");
    if (cut) {
      netns.cut(a, b);
    } else {
      netns.heal(a, b);
    }
    tellPairOfCut(a, b, cut, -1);
  }

  void degrade(String node, NetnsPlan.Degradation degradation) throws Exception {
    Netns netns = netns("degrade");
    if (degradation == null) {
      netns.restore(node);
    } else {
      netns.degrade(node, degradation);
    }
  }

  private ClusterRun nodes(String kind) {
    if (cluster == null) {
      throw new IllegalStateException(kind + " needs a multi-jvm run: this rack runs in one JVM");
    }
    return cluster;
  }

  private Netns netns(String kind) {
    if (cluster == null || cluster.netns().isEmpty()) {
      throw new IllegalStateException(kind + " needs node JVMs in network namespaces (multi-jvm { network ="
          + " namespaces }): this rack runs " + (cluster == null ? "in one JVM" : "on loopback"));
    }
    return cluster.netns().get();
  }

  /**
   * A cut between the nodes of the management-host pair reaches the model at once: the harness
   * made it, so the hosts hear it from the harness rather than guess it from the wall clock. Any
   * rack: a partition at a model time cuts links in one JVM too. At a heal, names each host that
   * stepped down on it (a master fenced on the switch while it was cut off), else "".
   */
  String tellPairOfCut(String a, String b, boolean cut, long at) throws Exception {
    Topology topology = rack.topology();
    if (!topology.pairBetween(a, b)) {
      return "";
    }
    var pair = topology.controlPlane();
    List<ActorRef<ControlPlaneHost.Command>> hosts = new ArrayList<>();
    for (String host : List.of(pair.master(), pair.backup())) {
      ActorRef<ControlPlaneHost.Command> ref = Asks.find(rack.system(), ComponentKeys.controlPlaneHost(host), FIND);
      ref.tell(new ControlPlaneHost.PeerCut(cut, at));
      hosts.add(ref);
    }
    if (cut) {
      return "";
    }
    StringBuilder note = new StringBuilder();
    for (ActorRef<ControlPlaneHost.Command> host : hosts) {
      ControlPlaneHost.HostStatus st = Asks.ask(rack.system(), host, ControlPlaneHost.GetStatus::new, FIND);
      if (st.role() == ControlPlaneHost.Role.FENCED && st.detail().contains("when the cut healed")) {
        note.append("; ").append(st.host()).append(" stepped down: ").append(st.detail());
      }
    }
    return note.toString();
  }

}
