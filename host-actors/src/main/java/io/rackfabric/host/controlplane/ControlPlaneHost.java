package io.rackfabric.host.controlplane;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.Behaviors;
import akka.persistence.typed.PersistenceId;
import io.rackfabric.fabric.endpoint.GuestAddress;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.CurrentState;
import io.rackfabric.persistence.controller.Controller.Operation;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.ControllerState;
import io.rackfabric.persistence.replication.ControllerReplica;
import io.rackfabric.persistence.replication.ControllerReplica.ReplicationAck;
import java.util.List;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * One management host's control-plane software (Ladon section 4.3, Multi-peer "Redundancy"). The master runs the
 * event-sourced {@link Controller}, serves control-plane requests with a bounded number in flight, replicates every
 * operation's events to the backup before acknowledging it, and sends heartbeats over the same link. The backup
 * persists what it is sent in a {@link ControllerReplica} on its own journal and watches the heartbeats; when they
 * stop it fences the master (every port but the master's own moves to VS2 on each switch chip it was given),
 * "reboots from the running image" (its clock advances by the modeled reboot, the replica stops and a controller
 * recovers over the same journal), becomes master, answers the requests that waited, and reports the {@link
 * TakeoverBreakdown}. A managed {@link Switchover} quiesces, waits for every outstanding operation, and hands over
 * without losing or repeating a request.
 *
 * <p>Every message between the two hosts is a {@link WireMessage} with a fixed id: the hosts run
 * in different JVMs. The link's latency is added to each message's model time on receipt.
 *
 * <p>A master that learns it is fenced (a {@link Fenced} notice, or an operation NOT_REPLICATED
 * because the backup refused or did not answer) never acknowledges another operation: what it
 * acknowledged is always in the backup's journal under the same sequence numbers.
 *
 * <p>This class is the host's protocol and its factory (a rejoin's messages between the hosts are in {@link
 * RejoinProtocol}). Each {@link Role} is a behavior of its own ({@link BootingRole}, {@link MasterRole}, {@link
 * HandingOverRole}, {@link BackupRole}, {@link TakingOverRole}, {@link AcceptingHandOverRole}, {@link FencedRole},
 * and for a fenced master's rejoin as backup {@link RejoiningRole} and {@link AdmittingBackupRole}) over what the
 * host keeps across roles ({@link HostCore}); {@link RoleBehavior} gives every role's default answers.
 */
public final class ControlPlaneHost {

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
    /**
     * A former master that was fenced or stood down: it acknowledges nothing any more (it may
     * {@link Rejoin} as the backup; it stays FENCED while it does).
     */
    FENCED
  }

  public sealed interface Command {}

  // ---- control-plane requests

  /** A control-plane operation for the master; answered to the operation's own replyTo. */
  public record Submit(Operation operation) implements Command, WireMessage {}

  /**
   * A control-plane client's request on the guest channel from its host's endpoint (model-time
   * requests): served at its arrival's model time, answered with {@link ClientAnswer} to
   * {@code client} on the channel.
   */
  public record ClientRequest(Controller.Request request, GuestAddress client) implements WireMessage {}

  /** The answer to a {@link ClientRequest}, on the guest channel. */
  public record ClientAnswer(long requestSeq, OperationResult result) implements WireMessage {}

  /**
   * The master's notice to a borrower's driver, on the guest channel its borrow came on: the
   * controller ended the loan of {@code device} by {@code borrower} without its asking, at model
   * {@code at}, for {@code reason} (its lender was removed from the rack); see {@link LoanNotices}.
   */
  public record LoanEnded(String device, String lender, String borrower, long at, String reason)
      implements WireMessage {}

  /** The controller's (or, on a backup, the replica's) state. */
  public record GetControllerState(ActorRef<CurrentState> replyTo) implements Command, WireMessage {}

  public record GetStatus(ActorRef<HostStatus> replyTo) implements Command, WireMessage {}

  /**
   * @param modelNow the host's model clock, ns
   * @param lastSeqNr the last sequence number this host knows persisted in its journal
   * @param detail why a fenced host is fenced, else empty
   * @param guest where its clients' requests go on the guest channel (null: it runs next to no
   *     endpoint)
   */
  public record HostStatus(String host, Role role, long modelNow, int inFlight, int queued,
      long lastSeqNr, String detail, GuestAddress guest) implements WireMessage {}

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
   * Refused (answered {@code ok=false} with the reason) by a host that is not the master, by a
   * master without a backup or cut off from it, and when the backup is gone or behind; the master
   * then serves on. Each switchover made is kept as a {@link SwitchoverBreakdown}.
   *
   * @param at the model time it was asked at, ns (0: whenever the master's clock stands)
   */
  public record Switchover(boolean standDown, long at, ActorRef<RoleChanged> replyTo)
      implements Command, WireMessage {

    /** Asked at no particular model time (wall-clock runs, tests). */
    public Switchover(boolean standDown, ActorRef<RoleChanged> replyTo) {
      this(standDown, 0, replyTo);
    }
  }

  public record RoleChanged(String host, Role role, boolean ok, long lastSeqNr, String detail)
      implements WireMessage {}

  /** Replaces the switch chips the backup fences the master on. */
  public record UseFenceTargets(List<FenceTarget> targets) implements Command, WireMessage {

    public UseFenceTargets {
      targets = List.copyOf(targets);
    }
  }

  /**
   * A switch chip on which fencing moves every port but {@code keepPorts} (the fenced master's own)
   * into the virtual switch of {@code ownPort} (the taking-over host's own port on the chip): VS1
   * to VS2 when the BMH takes over, VS2 back to VS1 when the MMH takes over from it again.
   */
  public record FenceTarget(ActorRef<SwitchChip.Command> chip, List<Integer> keepPorts, int ownPort)
      implements WireMessage {

    public FenceTarget {
      keepPorts = List.copyOf(keepPorts);
      if (ownPort < 0) {
        throw new IllegalArgumentException("ownPort=" + ownPort + " is negative: the taking-over host's port");
      }
      if (keepPorts.contains(ownPort)) {
        throw new IllegalArgumentException("ownPort=" + ownPort + " is one of keepPorts=" + keepPorts
            + ": the fenced master's ports");
      }
    }
  }

  /** Tells {@code subscriber} of every take-over this host made so far and makes from now on. */
  public record SubscribeTakeovers(ActorRef<TakeoverBreakdown> subscriber)
      implements Command, WireMessage {}

  /** Replies with the take-overs this host made so far and the switchovers it handed over in, oldest first. */
  public record GetTakeovers(ActorRef<Takeovers> replyTo) implements Command, WireMessage {}

  public record Takeovers(String host, List<TakeoverBreakdown> takeovers, List<SwitchoverBreakdown> switchovers)
      implements WireMessage {

    public Takeovers {
      takeovers = List.copyOf(takeovers);
      switchovers = List.copyOf(switchovers);
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
   * a node it killed). A master cut off from its backup cannot replicate, so it serves nothing
   * while cut (requests are answered NOT_MASTER for their clients to resend); a {@link Fenced}
   * notice sent to it meanwhile crosses the link when it heals, and the master then steps down.
   *
   * @param at the model time of the cut or the heal, ns (-1: a wall-time cut, none known)
   */
  public record PeerCut(boolean cut, long at) implements Command, WireMessage {

    /** At no particular model time (wall-time cuts, tests). */
    public PeerCut(boolean cut) {
      this(cut, -1);
    }
  }

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

  /**
   * One operation's events, numbered from {@code firstSeqNr}, for the backup's journal, with the
   * channel of the borrow they lend a device on (else null; see {@link LoanTracking}).
   */
  public record Replicate(long firstSeqNr, List<ControllerEvent> events, long sentAt,
      ActorRef<Replicated> replyTo, GuestAddress loanChannel) implements Command, WireMessage {

    public Replicate {
      events = List.copyOf(events);
    }
  }

  public record Replicated(boolean accepted, long lastSeqNr, long sentAt, String detail)
      implements WireMessage {}

  /**
   * A master-to-be shows the backup its booted state; {@code guest}: where its heartbeats come
   * from on the guest channel (null when it has no endpoint).
   */
  public record Pair(long lastSeqNr, ControllerState state, long sentAt, ActorRef<Command> master, GuestAddress guest)
      implements Command, WireMessage {}

  /** {@code guest}: where the backup takes heartbeats on the guest channel (null without an endpoint). */
  public record Paired(boolean ok, long lastSeqNr, long sentAt, String detail, GuestAddress guest)
      implements Command, WireMessage {}

  /** The backup moved the master's ports away at model time {@code at}. */
  public record Fenced(String by, long at) implements Command, WireMessage {}

  public record HandOver(long lastSeqNr, boolean standDown, long sentAt, ActorRef<Command> from)
      implements Command, WireMessage {}

  public record TookOver(boolean ok, long lastSeqNr, long sentAt, String detail)
      implements Command, WireMessage {}

  // ---- rejoin: a fenced master comes back as the backup of the host that fenced it

  /**
   * To a fenced host: ask {@code master} (null: the master that fenced it, its peer) to take it back as backup.
   * Answered BACKUP once the state transfer is persisted and verified, else FENCED with the reason. A host
   * restarted on its journal (started FENCED) knows no peer: it is told the master to rejoin. {@code notBefore}:
   * the model time the host's node was started again at, under the model-time kernel ({@code Long.MIN_VALUE}
   * otherwise): nothing of the rejoin reaches it earlier, so the master's first sign of life, the transfer, counts
   * from then for its heartbeat deadline, however far behind the master's own clock stands.
   */
  public record Rejoin(ActorRef<Command> master, ActorRef<RoleChanged> replyTo, long notBefore)
      implements Command, WireMessage {

    /** Rejoins {@code master} (null: the master that fenced it). */
    public Rejoin(ActorRef<Command> master, ActorRef<RoleChanged> replyTo) {
      this(master, replyTo, Long.MIN_VALUE);
    }

    /** Rejoins the master that fenced it. */
    public Rejoin(ActorRef<RoleChanged> replyTo) {
      this(null, replyTo);
    }
  }

  /** A rejoin's messages between the two hosts after the {@link Rejoin} that starts it ({@link RejoinProtocol}). */
  sealed interface RejoinMessage extends Command permits RejoinProtocol.JoinAsBackup, RejoinProtocol.JoinRefused,
      RejoinProtocol.ShowDigests, RejoinProtocol.Digests, RejoinProtocol.StateTransfer, RejoinProtocol.HistoryRead,
      RejoinProtocol.JoinAnswered, RejoinProtocol.TransferWritten {}

  // ---- to itself (package-private: the role behaviors send them)

  record Answered(Operation original, OperationResult result, Throwable failure)
      implements Command, NoSerializationVerificationNeeded {}

  enum HeartbeatTick implements Command, NoSerializationVerificationNeeded { INSTANCE }

  /** The wall-clock timer of a {@link PeerAnswerDeadline} due at model time {@code at}. */
  record AnswerDeadline(long at) implements Command, NoSerializationVerificationNeeded {}

  /** A call of the host's endpoint (see {@link HostGuest}): answered once handled. */
  record Called(GuestCall call) implements Command, NoSerializationVerificationNeeded {}

  /** The controller answered a fabric database change (see {@link FabricDatabaseCalls}). */
  record FabricDatabaseAnswered(OperationResult result) implements Command, NoSerializationVerificationNeeded {}

  /** The state read for a fabric manager taking over (see {@link FabricDatabaseCalls}). */
  record FabricStateRead(io.rackfabric.persistence.controller.Controller.CurrentState state)
      implements Command, NoSerializationVerificationNeeded {}

  /**
   * The peer this host watches has stopped (its actor, or its node left the cluster): a backup's
   * master, or a handing-over master's backup.
   */
  record PeerGone(ActorRef<Command> peer) implements Command, NoSerializationVerificationNeeded {}

  /**
   * A state read from the controller or the replica (null: failed), and what the role that asked
   * does with it: the behavior to go on with.
   */
  record StateRead(CurrentState state, Throwable failure, RoleBehavior asker,
      Function<CurrentState, Behavior<Command>> then) implements Command, NoSerializationVerificationNeeded {}

  /** The replica's answer to one write of {@code batch}, sent to {@code replica}. */
  record ReplicaAnswered(ReplicaFeed.Batch batch, ActorRef<ControllerReplica.Command> replica, ReplicationAck ack,
      Throwable failure) implements Command, NoSerializationVerificationNeeded {}

  /**
   * The controller's answer to a master's step-down ({@link Controller.StepDown}): the
   * {@link ControllerEvent.SteppedDown} persisted ({@code result}), or not ({@code failure}).
   */
  record StepDownWritten(OperationResult result, Throwable failure)
      implements Command, NoSerializationVerificationNeeded {}

  record TableRead(int target, RoutingTable table, Throwable failure)
      implements Command, NoSerializationVerificationNeeded {}

  record PortsMoved(int target, int ports, RoutingTable table, Throwable failure)
      implements Command, NoSerializationVerificationNeeded {}

  private ControlPlaneHost() {}

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
    return create(name, initial, persistenceId, settings, fenceTargets, null, System::nanoTime);
  }

  /**
   * As above, running next to {@code endpoint} (the host's root endpoint, named {@code name}) as
   * its guest: with {@code model-time-heartbeats}, the heartbeats and the suspicion are its
   * model-time events (see {@link HostGuest}).
   */
  public static Behavior<Command> create(String name, Role initial, PersistenceId persistenceId,
      ControlPlaneSettings settings, List<FenceTarget> fenceTargets, ActorRef<MemoryEndpoint.Command> endpoint) {
    return create(name, initial, persistenceId, settings, fenceTargets, endpoint, System::nanoTime);
  }

  /** With the wall clock injected (tests); {@code endpoint} may be null. */
  public static Behavior<Command> create(String name, Role initial, PersistenceId persistenceId,
      ControlPlaneSettings settings, List<FenceTarget> fenceTargets, ActorRef<MemoryEndpoint.Command> endpoint,
      LongSupplier wallNanos) {
    if (initial != Role.BOOTING && initial != Role.BACKUP && initial != Role.FENCED) {
      throw new IllegalArgumentException("initial=" + initial + " not in {BOOTING, BACKUP, FENCED}");
    }
    List<FenceTarget> targets = List.copyOf(fenceTargets);
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      ctx.setLoggerName(ControlPlaneHost.class); // one name in the logs, whatever the role
      HostGuest guest = new HostGuest(name, endpoint,
          endpoint == null ? null : ctx.messageAdapter(GuestCall.class, Called::new), settings.modelTimeHeartbeats());
      HostCore host = new HostCore(ctx, timers, name, persistenceId, settings, targets, wallNanos, guest);
      host.fabricDatabase = new FabricDatabaseCalls(name, guest, ctx.getLog(),
          ctx.messageAdapter(OperationResult.class, FabricDatabaseAnswered::new),
          ctx.messageAdapter(io.rackfabric.persistence.controller.Controller.CurrentState.class, FabricStateRead::new));
      guest.attach();
      if (settings.keepFabricDatabase()) {
        guest.keepFabricDatabase();
      }
      return switch (initial) {
        case BOOTING -> BootingRole.boot(ctx, host);
        case BACKUP -> BackupRole.start(ctx, host);
        default -> FencedRole.restarted(ctx, host);
      };
    }));
  }
}
