package io.rackfabric.host.controlplane;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.Terminated;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.AskPattern;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.TimerScheduler;
import akka.persistence.typed.PersistenceId;
import io.rackfabric.host.controlplane.ControlPlaneHost.Answered;
import io.rackfabric.host.controlplane.ControlPlaneHost.Command;
import io.rackfabric.host.controlplane.ControlPlaneHost.FenceTarget;
import io.rackfabric.host.controlplane.ControlPlaneHost.HostStatus;
import io.rackfabric.host.controlplane.ControlPlaneHost.PagesChanged;
import io.rackfabric.host.controlplane.ControlPlaneHost.ReplicaAnswered;
import io.rackfabric.host.controlplane.ControlPlaneHost.ResetForRestart;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import io.rackfabric.host.controlplane.ControlPlaneHost.StateRead;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.CurrentState;
import io.rackfabric.persistence.controller.Controller.Operation;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Controller.Status;
import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.ControllerEvent.TemplateImageTaken;
import io.rackfabric.persistence.controller.InlineStages;
import io.rackfabric.persistence.controller.Replication;
import io.rackfabric.persistence.replication.ControllerReplica;
import io.rackfabric.persistence.replication.ControllerReplica.ReplicationAck;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * What one management host keeps across its roles: its model clock and journal position, its one
 * child on the persistence id (a controller, or a replica on a backup), the requests it admits,
 * its heartbeats ({@link PairHeartbeats}), and who it tells of take-overs, restarts and page changes. The role
 * behaviors ({@link RoleBehavior}) decide; this class holds and does the bookkeeping they share.
 *
 * <p>A child's answer (a state read, a child stopped) carries on what the role that asked for it
 * began, only while that role is still the host's: a role left meanwhile (a backup that took over,
 * a master fenced during a switchover) does not come back through an old continuation.
 */
final class HostCore implements FabricDatabaseCalls.Host {

  /** Recovery of 10,000 events from an H2 file takes seconds; a stuck journal is an error. */
  private static final Duration RECOVERY_TIMEOUT = Duration.ofMinutes(2);

  private record AfterStop(RoleBehavior asker, Supplier<Behavior<Command>> then) {}

  final ActorContext<Command> context;
  final String name;
  final ControlPlaneSettings settings;
  final LongSupplier wallNanos;
  final Admission<Operation> admission;
  final List<ActorRef<TakeoverBreakdown>> takeoverSubscribers = new ArrayList<>();
  final List<TakeoverBreakdown> takeovers = new ArrayList<>();
  /** The managed switchovers this host handed over in, oldest first. */
  final List<SwitchoverBreakdown> switchovers = new ArrayList<>();
  final List<ActorRef<ResetForRestart>> dataPlane = new ArrayList<>();
  final List<ActorRef<PagesChanged>> pageWatchers = new ArrayList<>();
  /** The host's software as its endpoint's guest: model-time heartbeats and suspicion. */
  final HostGuest guest;
  /** The fabric manager's database in the controller's state: its endpoint's calls about it. */
  FabricDatabaseCalls fabricDatabase;
  /** Requests that came on a guest channel, each holding its call until answered. */
  final ChannelRequests channelRequests;
  /** The loans made while this host served, to tell a borrower when the controller ends one. */
  final LoanTracking loans;
  /** A master's heartbeats, a backup's watch of them. */
  final PairHeartbeats heartbeats;
  /** How long a role waits for the other host's answer (a rejoin, a hand-over). */
  final PeerAnswerDeadline answerDeadline;
  /** Where the next controller or replica journals; a rejoin moves it to a new tenure's id ({@link RejoinCheck}). */
  PersistenceId persistenceId;
  /** A master's replication step after a take-over: a rejoined backup is linked in ({@link BackupLink}). */
  final BackupLink backupLink = new BackupLink();
  private final Map<ActorRef<?>, AfterStop> afterStop = new HashMap<>();
  private final List<ActorRef<CurrentState>> heldStateQueries = new ArrayList<>();
  List<FenceTarget> fenceTargets;
  ActorRef<Controller.Command> controller;
  ActorRef<ControllerReplica.Command> replica;
  /** What goes to the replica, in batches while it writes. */
  ReplicaFeed replicaFeed = new ReplicaFeed();
  /** The other host of the pair: the backup of a master, the master of a backup. */
  ActorRef<Command> peer;
  /** Where the other host takes heartbeats on the pair's guest channel (null: not known, or none). */
  io.rackfabric.fabric.endpoint.GuestAddress peerGuest;
  /** The harness has cut the link to the peer (see {@link ControlPlaneHost.PeerCut}). */
  boolean cut;
  /** The model time of the cut, ns (-1: not known, a wall-time cut). */
  long cutAt = -1;
  /** A fencing notice that reached this master while the link was cut: it crosses when the cut heals. */
  ControlPlaneHost.Fenced fencedOverCut;
  boolean holdHeartbeats;
  long now;
  long lastSeqNr;
  long templateSeqNr;
  /** Whether the last controller started read the change log back from the journal (not resumed). */
  boolean changeLogReadBack;
  String fencedBecause = "";
  /** The role the host is in: a continuation of another one does not run. */
  RoleBehavior current;
  private int incarnation;

  HostCore(ActorContext<Command> context, TimerScheduler<Command> timers, String name,
      PersistenceId persistenceId, ControlPlaneSettings settings, List<FenceTarget> fenceTargets,
      LongSupplier wallNanos, HostGuest guest) {
    this.context = context;
    this.guest = guest;
    this.channelRequests = new ChannelRequests(guest);
    this.loans = new LoanTracking(name, guest, context.getLog());
    this.name = name;
    this.persistenceId = persistenceId;
    this.settings = settings;
    this.fenceTargets = fenceTargets;
    this.wallNanos = wallNanos;
    this.admission = new Admission<>(settings.maxInFlight(), settings.takeoverQueue());
    this.heartbeats = new PairHeartbeats(this, timers); // reads the settings and the guest above
    this.answerDeadline = new PeerAnswerDeadline(guest, timers, settings);
  }

  /** A message the peer sent over the MMH-BMH link at its model time {@code sentAt} arrived. */
  void arrived(long sentAt) {
    now = Math.max(now, sentAt + settings.linkLatencyNs());
  }

  HostStatus status(Role role) {
    return new HostStatus(name, role, now, admission.inFlight(), admission.queued(), lastSeqNr, fencedBecause,
        guest.address());
  }

  OperationResult notMaster(Role role) {
    return new OperationResult(Status.NOT_MASTER, lastSeqNr, now, "not the master: " + name + " is "
        + role + (fencedBecause.isEmpty() ? "" : " (" + fencedBecause + ")"), List.of());
  }

  // ---- requests

  /**
   * Whether a master must refuse a request because it is cut off from its backup: it could not
   * replicate it, and it persists nothing the backup does not hold. A master without a backup (one
   * that took over across the cut) serves on.
   */
  @Override
  public boolean cutOffMaster(Role role) {
    return role == Role.MASTER && cut && hasBackup();
  }

  /** The answer of a master cut off from its backup: NOT_MASTER, for the client to try the other host. */
  OperationResult cutOff() {
    return new OperationResult(Status.NOT_MASTER, lastSeqNr, now, "not serving: " + name
        + " is MASTER cut off from its backup" + (cutAt < 0 ? "" : " since " + cutAt + " ns")
        + " (it cannot replicate, so it acknowledges nothing until the cut heals)", List.of());
  }

  /** Admits an operation: sent to the controller, queued while no controller serves, or refused. */
  @Override
  public void admit(Operation op, Role role) {
    switch (admission.offer(op)) {
      case SEND -> send(op);
      case QUEUED -> context.getLog().debug("Host [{}] {}: request queued", name, role);
      case REFUSED -> reply(op, new OperationResult(Status.OVERLOADED, lastSeqNr, now,
          "overloaded: " + name + " has " + admission.inFlight() + " in flight (max-in-flight="
              + settings.maxInFlight() + ") and " + admission.queued() + " queued (takeover-queue="
              + settings.takeoverQueue() + ")", List.of()));
    }
  }

  /** Stamped with the time it is served, answered back here first. */
  private void send(Operation op) {
    now = Math.max(now, op.at());
    long at = now;
    ask(controller, operationTimeout(), to -> Operations.restamp(op, at, to),
        (OperationResult result, Throwable failure) -> new Answered(op, result, failure));
  }

  /**
   * {@code context.ask} with its answer handed over where it completes, not on a thread started
   * for it (see {@link InlineStages}): this is on every operation's path.
   */
  private <Q, R> void ask(ActorRef<Q> target, Duration timeout, Function<ActorRef<R>, Q> create,
      BiFunction<R, Throwable, Command> answer) {
    context.pipeToSelf(InlineStages.of(AskPattern.ask(target, create::apply, timeout, context.getSystem().scheduler())),
        answer::apply);
  }

  private Duration operationTimeout() {
    // The controller answers NOT_REPLICATED after the replication timeout: wait past it.
    return settings.replicationTimeout().multipliedBy(2).plusSeconds(1);
  }

  /** Books an operation's answer and tells its requester; returns what it was told. */
  OperationResult answered(Answered msg) {
    admission.done();
    OperationResult result = msg.result() != null ? msg.result()
        : new OperationResult(Status.NOT_REPLICATED, lastSeqNr, now,
            "no answer from the controller of " + name + ": " + msg.failure(), List.of());
    now = Math.max(now, result.at());
    if (result.accepted()) {
      lastSeqNr = Math.max(lastSeqNr, result.seqNr());
      noteTemplate(result.seqNr() - result.events().size() + 1, result.events());
      // Acknowledged means persisted: only now may a page change reach the hosts' IOMMUs.
      List<ControllerEvent> pages = result.events().stream().filter(e -> e instanceof ControllerEvent.IommuPageOpened
          || e instanceof ControllerEvent.IommuPageClosed).toList();
      if (!pages.isEmpty()) {
        pageWatchers.forEach(w -> w.tell(new PagesChanged(name, pages)));
      }
      // Before the answer, which lets the call that asked go: the notices leave at the answer's time.
      loans.accepted(result.events(), channelRequests.client(msg.original()), result.at());
    }
    reply(msg.original(), result);
    return result;
  }

  /** Tells {@code op}'s requester {@code result}: on its guest channel when it came on one. */
  void reply(Operation op, OperationResult result) {
    channelRequests.reply(op, result);
  }

  /**
   * A client's request on the guest channel, arrived at model time {@code at} in {@code call}: a
   * role that serves admits it, any other answers NOT_MASTER at its arrival (the call ends then).
   */
  void channelRequest(ControlPlaneHost.ClientRequest r, long at, io.rackfabric.fabric.endpoint.GuestCall call,
      Role role) {
    Operation op = channelRequests.arrived(r, at, call);
    loans.arrived(r);
    if (cutOffMaster(role)) {
      channelRequests.refuse(op, cutOff());
      return;
    }
    switch (role) {
      case MASTER, HANDING_OVER, TAKING_OVER -> admit(op, role);
      default -> refuse(op, role);
    }
  }

  /** Answers NOT_MASTER: a request on a channel at its arrival's model time. */
  void refuse(Operation op, Role role) {
    channelRequests.refuse(op, notMaster(role));
  }

  void noteTemplate(long firstSeqNr, List<ControllerEvent> events) {
    for (int i = 0; i < events.size(); i++) {
      if (events.get(i) instanceof TemplateImageTaken) {
        templateSeqNr = firstSeqNr + i;
      }
    }
  }

  /** Opens admission and sends what waited. */
  void serve() {
    admission.open().forEach(this::send);
  }

  /** While open: sends what waited and now fits under the bound. */
  void sendWaiting() {
    admission.next().forEach(this::send);
  }

  /**
   * Whether a master has a backup that holds its every event: a peer it replicates to. After a
   * take-over it has none (its peer is the fenced host) until a rejoin links one in.
   */
  boolean hasBackup() {
    return peer != null && !backupLink.canAdmit();
  }

  Replication link(ActorRef<Command> backup) {
    return new LinkReplication(backup, settings.replicationTimeout(), context.getSystem().scheduler(),
        loans.channels());
  }

  // ---- children: one controller or one replica at a time on the persistence id

  /**
   * Starts a controller; once it recovered, {@code ready} (of the current role) goes on. Given
   * {@code held}, the replica's drained state, it serves from that without reading the change log
   * back ({@link Controller#resume}); should the journal not end where {@code held} does, that
   * controller stops and one that recovers from the journal takes its place.
   */
  void startController(Replication replication, CurrentState held, Function<CurrentState, Behavior<Command>> ready) {
    backupLink.controllerStarts(replication);
    controller = context.spawn(held == null ? Controller.create(persistenceId, settings.maxInFlight(), replication)
        : Controller.resume(persistenceId, settings.maxInFlight(), replication, held), "controller-" + (++incarnation));
    context.watch(controller);
    answerHeldStateQueries();
    readController(state -> {
      if (state == null) {
        context.getLog().error("Host [{}]: the controller did not recover", name);
        return Behaviors.same();
      }
      if (held != null && state.lastSeqNr() != held.lastSeqNr()) {
        context.getLog().warn("Host [{}]: the journal ends at seqNr {}, the replica's state at {}: recovering from "
            + "the journal", name, state.lastSeqNr(), held.lastSeqNr());
        stopChild(controller, () -> {
          startController(replication, null, ready);
          return Behaviors.same();
        });
        return Behaviors.same();
      }
      changeLogReadBack = held == null;
      return ready.apply(state);
    });
  }

  void startReplica() {
    replica = context.spawn(ControllerReplica.create(persistenceId), "replica-" + (++incarnation));
    replicaFeed = new ReplicaFeed();
    context.watch(replica);
    answerHeldStateQueries();
  }

  /** The controller's state, or the replica's on a backup; between two children, the next one's. */
  @Override
  public void tellState(ActorRef<CurrentState> replyTo) {
    if (controller != null) {
      controller.tell(new Controller.GetState(replyTo));
    } else if (replica != null) {
      replica.tell(new ControllerReplica.GetState(replyTo));
    } else {
      heldStateQueries.add(replyTo);
    }
  }

  private void answerHeldStateQueries() {
    heldStateQueries.forEach(this::tellState);
    heldStateQueries.clear();
  }

  void readController(Function<CurrentState, Behavior<Command>> then) {
    RoleBehavior asker = current;
    ask(controller, RECOVERY_TIMEOUT, Controller.GetState::new,
        (CurrentState state, Throwable failure) -> new StateRead(state, failure, asker, then));
  }

  /** Sends each batch to the replica as one write; its answer comes back as a {@code ReplicaAnswered}. */
  void feedReplica(List<ReplicaFeed.Batch> batches) {
    ActorRef<ControllerReplica.Command> to = replica;
    for (ReplicaFeed.Batch b : batches) {
      ask(to, settings.replicationTimeout(), r -> new ControllerReplica.ReplicateEvents(b.firstSeqNr(), b.events(), r),
          (ReplicationAck ack, Throwable failure) -> new ReplicaAnswered(b, to, ack, failure));
    }
  }

  /** The replica's state once everything it was sent, and everything waiting to be, is persisted. */
  void drainReplica(Function<CurrentState, Behavior<Command>> then) {
    feedReplica(replicaFeed.flush());
    RoleBehavior asker = current;
    ask(replica, RECOVERY_TIMEOUT, ControllerReplica.GetState::new,
        (CurrentState state, Throwable failure) -> new StateRead(state, failure, asker, then));
  }

  Behavior<Command> stateRead(StateRead msg) {
    if (msg.failure() != null) {
      context.getLog().error("Host [{}]: no state from its controller or replica: {}", name, msg.failure().toString());
    }
    if (msg.asker() != current) {
      context.getLog().info("Host [{}]: a state read for a role it left is dropped", name);
      return Behaviors.same();
    }
    return msg.then().apply(msg.state());
  }

  /** Stops the replica, if any, with nothing to do after: the host stood down. */
  void stopReplica() {
    if (replica != null) {
      stopChild(replica, Behaviors::same);
    }
  }

  /** Stops a child; {@code then} (of the current role) goes on once it terminated (the persistence id is free). */
  void stopChild(ActorRef<?> child, Supplier<Behavior<Command>> then) {
    afterStop.put(child, new AfterStop(current, then));
    context.stop(child);
  }

  Behavior<Command> terminated(Terminated signal) {
    AfterStop after = afterStop.remove(signal.getRef());
    if (signal.getRef().equals(controller)) {
      controller = null;
    } else if (signal.getRef().equals(replica)) {
      replica = null;
    }
    if (after == null) {
      context.getLog().error("Host [{}]: {} stopped by itself", name, signal.getRef());
      return Behaviors.same();
    }
    if (after.asker() != current) {
      context.getLog().info("Host [{}]: {} stopped for a role it left", name, signal.getRef());
      return Behaviors.same();
    }
    return after.then().get();
  }

  /** Tells the take-over's subscribers and keeps it. */
  void tookOver(TakeoverBreakdown breakdown) {
    takeovers.add(breakdown);
    takeoverSubscribers.forEach(s -> s.tell(breakdown));
  }
}
