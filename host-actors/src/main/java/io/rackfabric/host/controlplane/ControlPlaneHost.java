package io.rackfabric.host.controlplane;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.Terminated;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.javadsl.TimerScheduler;
import akka.persistence.typed.PersistenceId;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.CurrentState;
import io.rackfabric.persistence.controller.Controller.Operation;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Controller.Status;
import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.ControllerEvent.TemplateImageTaken;
import io.rackfabric.persistence.controller.ControllerState;
import io.rackfabric.persistence.controller.Replication;
import io.rackfabric.persistence.replication.ControllerReplica;
import io.rackfabric.persistence.replication.ControllerReplica.ReplicationAck;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * One management host's control-plane software (Ladon section 4.3, Multi-peer "Redundancy"). The
 * master runs the event-sourced {@link Controller}, serves control-plane requests with a bounded
 * number in flight, replicates every operation's events to the backup before acknowledging it,
 * and sends heartbeats over the same link. The backup persists what it is sent in a
 * {@link ControllerReplica} on its own journal and watches the heartbeats; when they stop it
 * fences the master (every port but the master's own moves to VS2 on each switch chip it was
 * given), "reboots from the running image" (its clock advances by the modeled reboot, the replica
 * stops and a controller recovers over the same journal), becomes master, answers the requests
 * that waited, and reports the {@link TakeoverBreakdown}. A managed {@link Switchover} quiesces,
 * waits for every outstanding operation, and hands over without losing or repeating a request.
 *
 * <p>Every message between the two hosts is a {@link WireMessage} with a fixed id: the hosts run
 * in different JVMs. The link's latency is added to each message's model time on receipt.
 *
 * <p>A master that learns it is fenced (a {@link Fenced} notice, or an operation NOT_REPLICATED
 * because the backup refused or did not answer) never acknowledges another operation: what it
 * acknowledged is always in the backup's journal under the same sequence numbers.
 */
public final class ControlPlaneHost extends AbstractBehavior<ControlPlaneHost.Command> {

  /** What a host is doing; BOOTING and BACKUP are the roles it may start in. */
  public enum Role implements WireMessage {
    /** A lone controller, no backup: the boot of Figure 4 (enumeration, template image). */
    BOOTING,
    MASTER,
    BACKUP,
    /** The backup fencing the master and rebooting, or taking over in a managed switchover. */
    TAKING_OVER,
    /** The master of a managed switchover, quiescing and handing over. */
    HANDING_OVER,
    /** A former master that was fenced or stood down: it acknowledges nothing any more. */
    FENCED
  }

  public sealed interface Command {}

  // ---- control-plane requests

  /** A control-plane operation for the master; answered to the operation's own replyTo. */
  public record Submit(Operation operation) implements Command, WireMessage {}

  /** The controller's (or, on a backup, the replica's) state. */
  public record GetControllerState(ActorRef<CurrentState> replyTo) implements Command, WireMessage {}

  public record GetStatus(ActorRef<HostStatus> replyTo) implements Command, WireMessage {}

  /**
   * @param modelNow the host's model clock, ns
   * @param lastSeqNr the last sequence number this host knows persisted in its journal
   * @param detail why a fenced host is fenced, else empty
   */
  public record HostStatus(String host, Role role, long modelNow, int inFlight, int queued,
      long lastSeqNr, String detail) implements WireMessage {}

  // ---- roles, boot, switchover, subscriptions

  /** BOOTING to BACKUP: the booted controller stops and a replica starts on the same journal. */
  public record BecomeBackup(ActorRef<RoleChanged> replyTo) implements Command, WireMessage {}

  /**
   * BOOTING to MASTER with {@code backup}: the backup must hold the same last sequence number and
   * an equal state (the same template image), else the master refuses and stays BOOTING.
   */
  public record BecomeMaster(ActorRef<Command> backup, ActorRef<RoleChanged> replyTo)
      implements Command, WireMessage {}

  /**
   * A managed switchover, to the master: quiesce, let every outstanding operation be
   * acknowledged, hand over to the backup, forward the requests queued meanwhile to it, and become
   * its backup ({@code standDown}: stop serving instead, the new master then runs without backup).
   */
  public record Switchover(boolean standDown, ActorRef<RoleChanged> replyTo)
      implements Command, WireMessage {}

  public record RoleChanged(String host, Role role, boolean ok, long lastSeqNr, String detail)
      implements WireMessage {}

  /** Replaces the switch chips the backup fences the master on. */
  public record UseFenceTargets(List<FenceTarget> targets) implements Command, WireMessage {

    public UseFenceTargets {
      targets = List.copyOf(targets);
    }
  }

  /**
   * A switch chip on which fencing moves every VS1 port but {@code keepPorts} (the master's own)
   * to VS2.
   */
  public record FenceTarget(ActorRef<SwitchChip.Command> chip, List<Integer> keepPorts)
      implements WireMessage {

    public FenceTarget {
      keepPorts = List.copyOf(keepPorts);
    }
  }

  /** Tells {@code subscriber} of every take-over this host made so far and makes from now on. */
  public record SubscribeTakeovers(ActorRef<TakeoverBreakdown> subscriber)
      implements Command, WireMessage {}

  /** Replies with the take-overs this host made so far, oldest first. */
  public record GetTakeovers(ActorRef<Takeovers> replyTo) implements Command, WireMessage {}

  public record Takeovers(String host, List<TakeoverBreakdown> takeovers) implements WireMessage {

    public Takeovers {
      takeovers = List.copyOf(takeovers);
    }
  }

  /** A data-plane participant to tell of a whole-system restart (the baseline take-over). */
  public record SubscribeDataPlane(ActorRef<ResetForRestart> participant)
      implements Command, WireMessage {}

  /**
   * Tells {@code subscriber} of every IOMMU page this host's controller opened or closed from now
   * on, once persisted (and replicated): the events of each acknowledged operation that has any.
   * Local only: the management host's software applying them runs on this host's node.
   */
  public record SubscribePageChanges(ActorRef<PagesChanged> subscriber)
      implements Command, NoSerializationVerificationNeeded {}

  /** The {@code IommuPageOpened} and {@code IommuPageClosed} events of one persisted operation of {@code host}. */
  public record PagesChanged(String host, List<ControllerEvent> events) implements NoSerializationVerificationNeeded {

    public PagesChanged {
      events = List.copyOf(events);
    }
  }

  /**
   * The baseline's whole-system restart: the participant resets and its data plane is down over
   * [{@code downFrom}, {@code downUntil}) of model time.
   */
  public record ResetForRestart(String by, long downFrom, long downUntil) implements WireMessage {}

  /** Fault injection: a master that holds its heartbeats keeps serving but looks dead. */
  public record HoldHeartbeats(boolean hold) implements Command, WireMessage {}

  /**
   * From the run's harness: the MMH-BMH link is cut ({@code cut}) or mended. Nothing from the
   * master reaches this host while it is cut, so a backup suspects it once the heartbeat deadline
   * has passed (the harness that cuts the network between node JVMs says so at once, as it downs
   * a node it killed).
   */
  public record PeerCut(boolean cut) implements Command, WireMessage {}

  // ---- the MMH-BMH link

  /**
   * A heartbeat at the master's model time {@code sentAt}; with {@code held}, one the master did
   * not send (a held heartbeat): it only carries the master's clock, so the backup's suspicion
   * comes at the deadline in model time, not when the wall clock says so.
   */
  public record Heartbeat(String from, long sentAt, ActorRef<Command> master, boolean held)
      implements Command, WireMessage {

    public Heartbeat(String from, long sentAt, ActorRef<Command> master) {
      this(from, sentAt, master, false);
    }
  }

  /** One operation's events, numbered from {@code firstSeqNr}, for the backup's journal. */
  public record Replicate(long firstSeqNr, List<ControllerEvent> events, long sentAt,
      ActorRef<Replicated> replyTo) implements Command, WireMessage {

    public Replicate {
      events = List.copyOf(events);
    }
  }

  public record Replicated(boolean accepted, long lastSeqNr, long sentAt, String detail)
      implements WireMessage {}

  /** A master-to-be shows the backup its booted state. */
  public record Pair(long lastSeqNr, ControllerState state, long sentAt, ActorRef<Command> master)
      implements Command, WireMessage {}

  public record Paired(boolean ok, long lastSeqNr, long sentAt, String detail)
      implements Command, WireMessage {}

  /** The backup moved the master's ports away at model time {@code at}. */
  public record Fenced(String by, long at) implements Command, WireMessage {}

  public record HandOver(long lastSeqNr, boolean standDown, long sentAt, ActorRef<Command> from)
      implements Command, WireMessage {}

  public record TookOver(boolean ok, long lastSeqNr, long sentAt, String detail)
      implements Command, WireMessage {}

  // ---- to itself

  private record Answered(Operation original, OperationResult result, Throwable failure)
      implements Command, NoSerializationVerificationNeeded {}

  private enum HeartbeatTick implements Command, NoSerializationVerificationNeeded { INSTANCE }

  /** The master this backup watches has stopped (its actor, or its node left the cluster). */
  private record MasterGone(ActorRef<Command> master) implements Command, NoSerializationVerificationNeeded {}

  /** A state read from the controller or the replica, and what to do with it (null: failed). */
  private record StateRead(CurrentState state, Throwable failure, Consumer<CurrentState> then)
      implements Command, NoSerializationVerificationNeeded {}

  private record ReplicaAnswered(Replicate request, ReplicationAck ack, Throwable failure)
      implements Command, NoSerializationVerificationNeeded {}

  private record TableRead(int target, RoutingTable table, Throwable failure)
      implements Command, NoSerializationVerificationNeeded {}

  private record PortsMoved(int target, int ports, RoutingTable table, Throwable failure)
      implements Command, NoSerializationVerificationNeeded {}

  /** Recovery of 10,000 events from an H2 file takes seconds; a stuck journal is an error. */
  private static final Duration RECOVERY_TIMEOUT = Duration.ofMinutes(2);
  private static final Duration CHIP_TIMEOUT = Duration.ofSeconds(10);
  private static final Object HEARTBEAT_KEY = "heartbeat";

  private final String name;
  private final PersistenceId persistenceId;
  private final ControlPlaneSettings settings;
  private final LongSupplier wallNanos;
  private final TimerScheduler<Command> timers;
  private final Admission<Operation> admission;
  private final HeartbeatMonitor monitor;
  private final Map<ActorRef<?>, Runnable> afterStop = new HashMap<>();
  private final List<ActorRef<TakeoverBreakdown>> takeoverSubscribers = new ArrayList<>();
  private final List<TakeoverBreakdown> takeovers = new ArrayList<>();
  private final List<ActorRef<ResetForRestart>> dataPlane = new ArrayList<>();
  private final List<ActorRef<PagesChanged>> pageWatchers = new ArrayList<>();
  private final List<Replicate> heldReplicates = new ArrayList<>();
  private final List<ActorRef<CurrentState>> heldStateQueries = new ArrayList<>();
  private final List<Command> heldBootCommands = new ArrayList<>(); // until the boot recovered
  private List<FenceTarget> fenceTargets;
  private Role role;
  private ActorRef<Controller.Command> controller;
  private ActorRef<ControllerReplica.Command> replica;
  private ActorRef<Command> peer;
  /** The master whose end this backup learns of by death watch. */
  private ActorRef<Command> watchedMaster;
  /** The harness has cut the link to the peer (see {@link PeerCut}). */
  private boolean cut;
  private int incarnation;
  private long now;
  private long lastBeatAt;
  private boolean holdHeartbeats;
  private long lastSeqNr;
  private long templateSeqNr;
  private String fencedBecause = "";
  private TakeoverRecorder takeover;
  private BecomeMaster pendingBecomeMaster;
  private Switchover pendingSwitchover;
  private boolean handOverSent;

  /**
   * @param name the host's component id (appears in replies and breakdowns)
   * @param initial BOOTING (a lone controller for the boot) or BACKUP (a replica, empty or not)
   * @param persistenceId this host's controller in its own journal; the master's and the backup's
   *     may be equal (one journal per node) or differ (hosts sharing a journal in one JVM)
   * @param fenceTargets the switch chips to fence the master on (may be empty; see
   *     {@link UseFenceTargets})
   */
  public static Behavior<Command> create(String name, Role initial, PersistenceId persistenceId,
      ControlPlaneSettings settings, List<FenceTarget> fenceTargets) {
    return create(name, initial, persistenceId, settings, fenceTargets, System::nanoTime);
  }

  /** With the wall clock injected (tests). */
  public static Behavior<Command> create(String name, Role initial, PersistenceId persistenceId,
      ControlPlaneSettings settings, List<FenceTarget> fenceTargets, LongSupplier wallNanos) {
    if (initial != Role.BOOTING && initial != Role.BACKUP) {
      throw new IllegalArgumentException("initial=" + initial + " not in {BOOTING, BACKUP}");
    }
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> new ControlPlaneHost(ctx, timers,
        name, initial, persistenceId, settings, List.copyOf(fenceTargets), wallNanos)));
  }

  private ControlPlaneHost(ActorContext<Command> context, TimerScheduler<Command> timers,
      String name, Role initial, PersistenceId persistenceId, ControlPlaneSettings settings,
      List<FenceTarget> fenceTargets, LongSupplier wallNanos) {
    super(context);
    this.timers = timers;
    this.name = name;
    this.persistenceId = persistenceId;
    this.settings = settings;
    this.fenceTargets = fenceTargets;
    this.wallNanos = wallNanos;
    this.admission = new Admission<>(settings.maxInFlight(), settings.takeoverQueue());
    this.monitor = new HeartbeatMonitor(settings.heartbeatIntervalNs(), settings.missedHeartbeats());
    this.role = initial;
    if (initial == Role.BOOTING) {
      startController(Replication.none(), ready -> {
        serve();
        heldBootCommands.forEach(getContext().getSelf()::tell);
        heldBootCommands.clear();
      });
    } else {
      startReplica();
    }
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Submit.class, this::onSubmit)
        .onMessage(Answered.class, this::onAnswered)
        .onMessage(GetControllerState.class, this::onGetControllerState)
        .onMessage(GetStatus.class, this::onGetStatus)
        .onMessage(BecomeBackup.class, this::onBecomeBackup)
        .onMessage(BecomeMaster.class, this::onBecomeMaster)
        .onMessage(Pair.class, this::onPair)
        .onMessage(Paired.class, this::onPaired)
        .onMessage(Switchover.class, this::onSwitchover)
        .onMessage(HandOver.class, this::onHandOver)
        .onMessage(TookOver.class, this::onTookOver)
        .onMessage(UseFenceTargets.class, this::onUseFenceTargets)
        .onMessage(SubscribeTakeovers.class, this::onSubscribeTakeovers)
        .onMessage(GetTakeovers.class, this::onGetTakeovers)
        .onMessage(SubscribeDataPlane.class, this::onSubscribeDataPlane)
        .onMessage(SubscribePageChanges.class, this::onSubscribePageChanges)
        .onMessage(HoldHeartbeats.class, this::onHoldHeartbeats)
        .onMessage(HeartbeatTick.class, this::onHeartbeatTick)
        .onMessage(Heartbeat.class, this::onHeartbeat)
        .onMessage(MasterGone.class, this::onMasterGone)
        .onMessage(PeerCut.class, this::onPeerCut)
        .onMessage(Replicate.class, this::onReplicate)
        .onMessage(ReplicaAnswered.class, this::onReplicaAnswered)
        .onMessage(Fenced.class, this::onFenced)
        .onMessage(StateRead.class, this::onStateRead)
        .onMessage(TableRead.class, this::onTableRead)
        .onMessage(PortsMoved.class, this::onPortsMoved)
        .onSignal(Terminated.class, this::onTerminated)
        .build();
  }

  // ---- requests

  private Behavior<Command> onSubmit(Submit msg) {
    Operation op = msg.operation();
    // A booting host takes its boot's operations only: a host's numbered request waits for a master.
    if (role == Role.BACKUP || role == Role.FENCED || role == Role.BOOTING && op instanceof Controller.Request) {
      op.replyTo().tell(notMaster());
      return this;
    }
    switch (admission.offer(op)) {
      case SEND -> send(op);
      case QUEUED -> getContext().getLog().debug("Host [{}] {}: request queued", name, role);
      case REFUSED -> op.replyTo().tell(new OperationResult(Status.OVERLOADED, lastSeqNr, now,
          "overloaded: " + name + " has " + admission.inFlight() + " in flight (max-in-flight="
              + settings.maxInFlight() + ") and " + admission.queued() + " queued (takeover-queue="
              + settings.takeoverQueue() + ")", List.of()));
    }
    return this;
  }

  /** Stamped with the time it is served, answered back here first. */
  private void send(Operation op) {
    now = Math.max(now, op.at());
    long at = now;
    getContext().ask(OperationResult.class, controller, operationTimeout(),
        to -> Operations.restamp(op, at, to), (result, failure) -> new Answered(op, result, failure));
  }

  private Duration operationTimeout() {
    // The controller answers NOT_REPLICATED after the replication timeout: wait past it.
    return settings.replicationTimeout().multipliedBy(2).plusSeconds(1);
  }

  private Behavior<Command> onAnswered(Answered msg) {
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
    }
    msg.original().replyTo().tell(result);
    if (result.status() == Status.NOT_REPLICATED
        && (role == Role.MASTER || role == Role.HANDING_OVER)) {
      fence("an operation was not replicated: " + result.detail());
    }
    pump();
    return this;
  }

  private void noteTemplate(long firstSeqNr, List<ControllerEvent> events) {
    for (int i = 0; i < events.size(); i++) {
      if (events.get(i) instanceof TemplateImageTaken) {
        templateSeqNr = firstSeqNr + i;
      }
    }
  }

  /** Sends what waited, while open; a quiescing master hands over once nothing is in flight. */
  private void pump() {
    admission.next().forEach(this::send);
    if (role == Role.HANDING_OVER && pendingSwitchover != null && !handOverSent
        && admission.inFlight() == 0) {
      handOverSent = true;
      readController(state -> {
        if (state == null) {
          resumeAfterFailedSwitchover("could not read the controller's state");
          return;
        }
        peer.tell(new HandOver(state.lastSeqNr(), pendingSwitchover.standDown(), now,
            getContext().getSelf()));
      });
    }
  }

  private void serve() {
    admission.open().forEach(this::send);
  }

  private OperationResult notMaster() {
    return new OperationResult(Status.NOT_MASTER, lastSeqNr, now, "not the master: " + name + " is "
        + role + (fencedBecause.isEmpty() ? "" : " (" + fencedBecause + ")"), List.of());
  }

  private Behavior<Command> onGetControllerState(GetControllerState msg) {
    if (controller != null) {
      controller.tell(new Controller.GetState(msg.replyTo()));
    } else if (replica != null) {
      replica.tell(new ControllerReplica.GetState(msg.replyTo()));
    } else {
      heldStateQueries.add(msg.replyTo()); // between two incarnations: answered by the next
    }
    return this;
  }

  private Behavior<Command> onGetStatus(GetStatus msg) {
    msg.replyTo().tell(new HostStatus(name, role, now, admission.inFlight(), admission.queued(),
        lastSeqNr, fencedBecause));
    return this;
  }

  // ---- boot: Figure 4

  private Behavior<Command> onBecomeBackup(BecomeBackup msg) {
    if (heldOrRefused(msg, msg.replyTo())) {
      return this;
    }
    admission.close();
    stopChild(controller, () -> {
      controller = null;
      startReplica();
      role = Role.BACKUP;
      msg.replyTo().tell(new RoleChanged(name, role, true, lastSeqNr, "backup of its journal"));
    });
    return this;
  }

  private Behavior<Command> onBecomeMaster(BecomeMaster msg) {
    if (heldOrRefused(msg, msg.replyTo())) {
      return this;
    }
    pendingBecomeMaster = msg;
    peer = msg.backup();
    admission.close();
    readController(state -> {
      if (state == null) {
        failBecomeMaster("could not read the booted controller's state");
        return;
      }
      lastSeqNr = state.lastSeqNr();
      peer.tell(new Pair(state.lastSeqNr(), state.state(), now, getContext().getSelf()));
    });
    return this;
  }

  /** A role change from the boot waits for the boot's recovery, or is refused; else false. */
  private boolean heldOrRefused(Command msg, ActorRef<RoleChanged> replyTo) {
    if (stillRecovering()) {
      heldBootCommands.add(msg);
      return true;
    }
    String refusal = bootRefusal();
    if (refusal != null) {
      replyTo.tell(new RoleChanged(name, role, false, lastSeqNr, refusal));
      return true;
    }
    return false;
  }

  /** The booting controller has not answered yet: a role change waits for it. */
  private boolean stillRecovering() {
    return role == Role.BOOTING && controller != null && !admission.isOpen()
        && pendingBecomeMaster == null && admission.inFlight() == 0;
  }

  /** Why a role change from the boot is not possible now, or null. */
  private String bootRefusal() {
    if (role != Role.BOOTING || controller == null) {
      return name + " is " + role + ", not BOOTING";
    }
    if (pendingBecomeMaster != null) {
      return name + " is already pairing with a backup";
    }
    if (admission.inFlight() > 0 || !admission.isOpen()) {
      return name + " has " + admission.inFlight() + " operations in flight or is still recovering";
    }
    return null;
  }

  private Behavior<Command> onPair(Pair msg) {
    now = Math.max(now, msg.sentAt() + settings.linkLatencyNs());
    if (role != Role.BACKUP) {
      msg.master().tell(new Paired(false, lastSeqNr, now, name + " is " + role + ", not a backup"));
      return this;
    }
    drainReplica(state -> {
      String problem = state == null ? "the replica did not answer"
          : state.lastSeqNr() != msg.lastSeqNr()
              ? "lastSeqNr: master=" + msg.lastSeqNr() + " backup=" + state.lastSeqNr()
              : !state.state().equals(msg.state())
                  ? "the states differ at lastSeqNr=" + state.lastSeqNr()
                      + ": boot both hosts with the same operations (the same template image)"
                  : null;
      if (problem != null) {
        msg.master().tell(new Paired(false, state == null ? lastSeqNr : state.lastSeqNr(), now,
            problem));
        return;
      }
      lastSeqNr = state.lastSeqNr();
      peer = msg.master();
      monitor.reset();
      watchMaster();
      watchHeartbeat(msg.sentAt()); // the pairing is the master's first sign of life
      msg.master().tell(new Paired(true, lastSeqNr, now, "paired"));
    });
    return this;
  }

  private Behavior<Command> onPaired(Paired msg) {
    if (pendingBecomeMaster == null) {
      return this;
    }
    now = Math.max(now, msg.sentAt() + settings.linkLatencyNs());
    if (!msg.ok()) {
      failBecomeMaster("backup refused: " + msg.detail());
      return this;
    }
    BecomeMaster request = pendingBecomeMaster;
    stopChild(controller, () -> startController(link(peer), state -> {
      pendingBecomeMaster = null;
      lastSeqNr = state.lastSeqNr();
      role = Role.MASTER;
      startHeartbeats();
      serve();
      request.replyTo().tell(new RoleChanged(name, role, true, lastSeqNr, "master, paired"));
    }));
    return this;
  }

  private void failBecomeMaster(String detail) {
    getContext().getLog().warn("Host [{}] cannot become master: {}", name, detail);
    pendingBecomeMaster.replyTo().tell(new RoleChanged(name, role, false, lastSeqNr, detail));
    pendingBecomeMaster = null;
    peer = null;
    serve();
  }

  private Replication link(ActorRef<Command> backup) {
    return new LinkReplication(backup, settings.replicationTimeout(), getContext().getSystem().scheduler());
  }

  // ---- heartbeats and failure take-over

  private void startHeartbeats() {
    lastBeatAt = now;
    timers.startTimerAtFixedRate(HEARTBEAT_KEY, HeartbeatTick.INSTANCE,
        settings.wall(settings.heartbeatIntervalNs()));
  }

  private Behavior<Command> onHoldHeartbeats(HoldHeartbeats msg) {
    holdHeartbeats = msg.hold();
    return this;
  }

  private Behavior<Command> onHeartbeatTick(HeartbeatTick tick) {
    if (role != Role.MASTER && role != Role.HANDING_OVER) {
      timers.cancel(HEARTBEAT_KEY);
      return this;
    }
    // A timer's deadline is its model time: beats stay an interval apart whatever the wall jitter.
    now = Math.max(now, lastBeatAt + settings.heartbeatIntervalNs());
    lastBeatAt = now;
    if (peer != null) {
      peer.tell(new Heartbeat(name, now, getContext().getSelf(), holdHeartbeats));
    }
    return this;
  }

  private Behavior<Command> onHeartbeat(Heartbeat msg) {
    if (role != Role.BACKUP) {
      return this; // a take-over or a hand-over is under way: the old master's beats mean nothing
    }
    if (cut) {
      return this; // sent before the cut, arrived after it: the harness's word comes first
    }
    if (!msg.master().equals(peer)) {
      peer = msg.master();
      watchMaster();
    }
    long arrivedAt = msg.sentAt() + settings.linkLatencyNs();
    if (!msg.held()) {
      watchHeartbeat(msg.sentAt());
    }
    monitor.tick(arrivedAt);
    checkSuspicion();
    return this;
  }

  private void watchHeartbeat(long sentAt) {
    long arrivedAt = sentAt + settings.linkLatencyNs();
    now = Math.max(now, arrivedAt);
    monitor.heartbeat(sentAt, arrivedAt);
  }

  /** Learns of the master's end from death watch: a stopped actor, or its node downed. */
  private void watchMaster() {
    if (peer != null && !peer.equals(watchedMaster)) {
      watchedMaster = peer;
      getContext().watchWith(peer, new MasterGone(peer));
    }
  }

  private Behavior<Command> onMasterGone(MasterGone msg) {
    if (role == Role.BACKUP && msg.master().equals(peer)) {
      getContext().getLog().info("Host [{}]: the master stopped; it is suspected at the heartbeat deadline", name);
      monitor.masterGone();
      checkSuspicion();
    }
    return this;
  }

  private Behavior<Command> onPeerCut(PeerCut msg) {
    cut = msg.cut();
    getContext().getLog().info("Host [{}]: link to the peer {}", name, cut ? "cut" : "mended");
    if (cut && role == Role.BACKUP) {
      monitor.masterGone();
      checkSuspicion();
    }
    return this;
  }

  private void checkSuspicion() {
    if (role == Role.BACKUP) {
      monitor.check().ifPresent(this::takeOver);
    }
  }

  private void takeOver(HeartbeatMonitor.Suspicion suspicion) {
    role = Role.TAKING_OVER; // from here on the backup refuses every replication
    now = Math.max(now, suspicion.suspectedAt());
    takeover = new TakeoverRecorder(name, settings.takeover(), suspicion, wallNanos.getAsLong());
    if (watchedMaster != null) {
      getContext().unwatch(watchedMaster);
      watchedMaster = null;
    }
    getContext().getLog().warn("Host [{}] suspects the master (last heartbeat at {} ns); taking over "
        + "({}) at {} ns", name, suspicion.lastSentAt(), settings.takeover(), now);
    fenceOn(0);
  }

  /** Fences on one chip after the other: each partition update is one service time. */
  private void fenceOn(int target) {
    if (target == fenceTargets.size()) {
      fenced();
      return;
    }
    getContext().ask(RoutingTable.class, fenceTargets.get(target).chip(), CHIP_TIMEOUT,
        SwitchChip.GetRoutingTable::new, (table, failure) -> new TableRead(target, table, failure));
  }

  private Behavior<Command> onTableRead(TableRead msg) {
    if (msg.failure() != null) {
      getContext().getLog().error("Host [{}] cannot read switch chip {} to fence the master: {}",
          name, msg.target(), msg.failure().toString());
      fenceOn(msg.target() + 1);
      return this;
    }
    List<Integer> keep = fenceTargets.get(msg.target()).keepPorts();
    List<Integer> move = new ArrayList<>();
    for (PortConfig p : msg.table().ports()) {
      if (p.virtualSwitch() == 1 && !keep.contains(p.number())) {
        move.add(p.number());
      }
    }
    if (move.isEmpty()) {
      fenceOn(msg.target() + 1);
      return this;
    }
    getContext().ask(RoutingTable.class, fenceTargets.get(msg.target()).chip(), CHIP_TIMEOUT,
        to -> new SwitchChip.ReassignPorts(move, 2, to),
        (table, failure) -> new PortsMoved(msg.target(), move.size(), table, failure));
    return this;
  }

  private Behavior<Command> onPortsMoved(PortsMoved msg) {
    if (msg.failure() != null) {
      getContext().getLog().error("Host [{}] got no answer from switch chip {} to the reassignment: {}",
          name, msg.target(), msg.failure().toString());
    } else {
      now += settings.portReassignmentNs(); // the chip's partition update, answered now
      takeover.portsReassigned(msg.ports());
    }
    fenceOn(msg.target() + 1);
    return this;
  }

  private void fenced() {
    takeover.fenced(now);
    if (peer != null) {
      peer.tell(new Fenced(name, now));
    }
    // The replica answers after every persist it started: then nothing more lands in the journal.
    drainReplica(state -> stopChild(replica, () -> {
      replica = null;
      long from = now;
      now += settings.takeover() == Takeover.LADON ? settings.rebootTimeNs() : settings.restartTimeNs();
      if (settings.takeover() == Takeover.RESTART) {
        takeover.dataPlaneDown(from, now);
        ResetForRestart reset = new ResetForRestart(name, from, now);
        dataPlane.forEach(p -> p.tell(reset));
      }
      takeover.replayStarted(wallNanos.getAsLong());
      startController(Replication.none(), recovered -> {
        lastSeqNr = recovered.lastSeqNr();
        takeover.resumed(now, wallNanos.getAsLong(), recovered.lastSeqNr(), templateSeqNr);
        role = Role.MASTER;
        int queued = admission.queued();
        serve();
        TakeoverBreakdown breakdown = takeover.breakdown(queued);
        getContext().getLog().info("Host [{}] took over: {}", name, breakdown);
        takeovers.add(breakdown);
        takeoverSubscribers.forEach(s -> s.tell(breakdown));
      });
    }));
  }

  private Behavior<Command> onFenced(Fenced msg) {
    if (role == Role.MASTER || role == Role.HANDING_OVER) {
      now = Math.max(now, msg.at() + settings.linkLatencyNs());
      fence("fenced by " + msg.by() + " at " + msg.at() + " ns");
    }
    return this;
  }

  /** Never acknowledges again: requests waiting here are refused, new ones too. */
  private void fence(String reason) {
    getContext().getLog().warn("Host [{}] stops serving: {}", name, reason);
    role = Role.FENCED;
    fencedBecause = reason;
    timers.cancel(HEARTBEAT_KEY);
    admission.close();
    admission.takeQueued().forEach(op -> op.replyTo().tell(notMaster()));
    if (pendingSwitchover != null) {
      pendingSwitchover.replyTo().tell(new RoleChanged(name, role, false, lastSeqNr, reason));
      pendingSwitchover = null;
    }
  }

  // ---- replication, backup side

  private Behavior<Command> onReplicate(Replicate msg) {
    if (role == Role.HANDING_OVER) {
      heldReplicates.add(msg); // the new master replicates before this host's replica is up
      return this;
    }
    now = Math.max(now, msg.sentAt() + settings.linkLatencyNs());
    if (role != Role.BACKUP || replica == null) {
      msg.replyTo().tell(new Replicated(false, lastSeqNr, now, name + " is " + role + ", not the backup"));
      return this;
    }
    getContext().ask(ReplicationAck.class, replica, settings.replicationTimeout(),
        to -> new ControllerReplica.ReplicateEvents(msg.firstSeqNr(), msg.events(), to),
        (ack, failure) -> new ReplicaAnswered(msg, ack, failure));
    return this;
  }

  private Behavior<Command> onReplicaAnswered(ReplicaAnswered msg) {
    Replicate request = msg.request();
    if (msg.failure() != null) {
      request.replyTo().tell(new Replicated(false, lastSeqNr, now, "replica: " + msg.failure()));
    } else if (role != Role.BACKUP) {
      // Persisted, perhaps, but the take-over began: the master must not count on it.
      request.replyTo().tell(new Replicated(false, msg.ack().lastSeqNr(), now,
          name + " is " + role + ", not the backup"));
    } else {
      if (msg.ack().accepted()) {
        lastSeqNr = msg.ack().lastSeqNr();
        noteTemplate(request.firstSeqNr(), request.events());
      }
      request.replyTo().tell(new Replicated(msg.ack().accepted(), msg.ack().lastSeqNr(), now,
          msg.ack().detail()));
    }
    return this;
  }

  // ---- managed switchover (Multi-peer)

  private Behavior<Command> onSwitchover(Switchover msg) {
    if (role != Role.MASTER || peer == null || pendingSwitchover != null) {
      msg.replyTo().tell(new RoleChanged(name, role, false, lastSeqNr,
          name + " is " + role + (peer == null ? " without a backup" : "") + ": no switchover"));
      return this;
    }
    role = Role.HANDING_OVER;
    pendingSwitchover = msg;
    handOverSent = false;
    admission.close();
    pump();
    return this;
  }

  private Behavior<Command> onHandOver(HandOver msg) {
    now = Math.max(now, msg.sentAt() + settings.linkLatencyNs());
    if (role != Role.BACKUP) {
      msg.from().tell(new TookOver(false, lastSeqNr, now, name + " is " + role + ", not the backup"));
      return this;
    }
    role = Role.TAKING_OVER;
    monitor.reset();
    drainReplica(state -> {
      if (state == null || state.lastSeqNr() != msg.lastSeqNr()) {
        role = Role.BACKUP;
        watchHeartbeat(msg.sentAt());
        msg.from().tell(new TookOver(false, state == null ? lastSeqNr : state.lastSeqNr(), now,
            state == null ? "the replica did not answer"
                : "lastSeqNr: master=" + msg.lastSeqNr() + " backup=" + state.lastSeqNr()));
        return;
      }
      stopChild(replica, () -> {
        replica = null;
        startController(msg.standDown() ? Replication.none() : link(msg.from()), recovered -> {
          lastSeqNr = recovered.lastSeqNr();
          role = Role.MASTER;
          peer = msg.standDown() ? null : msg.from();
          if (peer != null) {
            startHeartbeats();
          }
          serve();
          msg.from().tell(new TookOver(true, lastSeqNr, now, name + " is master"));
        });
      });
    });
    return this;
  }

  private Behavior<Command> onTookOver(TookOver msg) {
    Switchover request = pendingSwitchover;
    if (request == null || role != Role.HANDING_OVER) {
      return this;
    }
    now = Math.max(now, msg.sentAt() + settings.linkLatencyNs());
    if (!msg.ok()) {
      resumeAfterFailedSwitchover(msg.detail());
      return this;
    }
    timers.cancel(HEARTBEAT_KEY);
    ActorRef<Command> newMaster = peer;
    stopChild(controller, () -> {
      controller = null;
      pendingSwitchover = null;
      if (request.standDown()) {
        role = Role.FENCED;
        fencedBecause = "stood down in a switchover";
      } else {
        startReplica();
        role = Role.BACKUP;
        monitor.reset();
      }
      List<Replicate> held = new ArrayList<>(heldReplicates);
      heldReplicates.clear();
      held.forEach(this::onReplicate);
      // In arrival order, after the hand-over: the new master serves each once.
      admission.takeQueued().forEach(op -> newMaster.tell(new Submit(op)));
      request.replyTo().tell(new RoleChanged(name, role, true, lastSeqNr,
          "handed over at lastSeqNr=" + msg.lastSeqNr()));
    });
    return this;
  }

  private void resumeAfterFailedSwitchover(String detail) {
    getContext().getLog().warn("Host [{}] switchover failed: {}", name, detail);
    Switchover request = pendingSwitchover;
    pendingSwitchover = null;
    handOverSent = false;
    role = Role.MASTER;
    serve();
    request.replyTo().tell(new RoleChanged(name, role, false, lastSeqNr, detail));
  }

  // ---- configuration and subscriptions

  private Behavior<Command> onUseFenceTargets(UseFenceTargets msg) {
    fenceTargets = msg.targets();
    return this;
  }

  private Behavior<Command> onSubscribeTakeovers(SubscribeTakeovers msg) {
    takeoverSubscribers.add(msg.subscriber());
    takeovers.forEach(msg.subscriber()::tell);
    return this;
  }

  private Behavior<Command> onGetTakeovers(GetTakeovers msg) {
    msg.replyTo().tell(new Takeovers(name, takeovers));
    return this;
  }

  private Behavior<Command> onSubscribePageChanges(SubscribePageChanges msg) {
    pageWatchers.add(msg.subscriber());
    return this;
  }

  private Behavior<Command> onSubscribeDataPlane(SubscribeDataPlane msg) {
    dataPlane.add(msg.participant());
    return this;
  }

  // ---- children: one controller or one replica at a time on the persistence id

  private void startController(Replication replication, Consumer<CurrentState> ready) {
    controller = getContext().spawn(
        Controller.create(persistenceId, settings.maxInFlight(), replication),
        "controller-" + (++incarnation));
    getContext().watch(controller);
    answerHeldStateQueries();
    readController(state -> {
      if (state == null) {
        getContext().getLog().error("Host [{}]: the controller did not recover", name);
        return;
      }
      ready.accept(state);
    });
  }

  private void startReplica() {
    replica = getContext().spawn(ControllerReplica.create(persistenceId), "replica-" + (++incarnation));
    getContext().watch(replica);
    answerHeldStateQueries();
  }

  private void answerHeldStateQueries() {
    heldStateQueries.forEach(q -> onGetControllerState(new GetControllerState(q)));
    heldStateQueries.clear();
  }

  private void readController(Consumer<CurrentState> then) {
    getContext().ask(CurrentState.class, controller, RECOVERY_TIMEOUT, Controller.GetState::new,
        (state, failure) -> new StateRead(state, failure, then));
  }

  private void drainReplica(Consumer<CurrentState> then) {
    getContext().ask(CurrentState.class, replica, RECOVERY_TIMEOUT, ControllerReplica.GetState::new,
        (state, failure) -> new StateRead(state, failure, then));
  }

  private Behavior<Command> onStateRead(StateRead msg) {
    if (msg.failure() != null) {
      getContext().getLog().error("Host [{}]: no state from its controller or replica: {}", name,
          msg.failure().toString());
    }
    msg.then().accept(msg.state());
    return this;
  }

  /** Stops a child and runs {@code then} once it terminated (the persistence id is free again). */
  private void stopChild(ActorRef<?> child, Runnable then) {
    afterStop.put(child, then);
    getContext().stop(child);
  }

  private Behavior<Command> onTerminated(Terminated signal) {
    Runnable then = afterStop.remove(signal.getRef());
    if (then != null) {
      then.run();
    } else {
      getContext().getLog().error("Host [{}]: {} stopped by itself", name, signal.getRef());
      if (signal.getRef().equals(controller)) {
        controller = null;
      } else if (signal.getRef().equals(replica)) {
        replica = null;
      }
    }
    return this;
  }
}
