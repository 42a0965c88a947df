package io.rackfabric.host.controlplane;

import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.ActorContext;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.host.controlplane.ControlPlaneHost.Command;
import io.rackfabric.host.controlplane.ControlPlaneHost.Fenced;
import io.rackfabric.host.controlplane.ControlPlaneHost.PortsMoved;
import io.rackfabric.host.controlplane.ControlPlaneHost.ResetForRestart;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import io.rackfabric.host.controlplane.ControlPlaneHost.TableRead;
import io.rackfabric.persistence.controller.Controller.CurrentState;
import java.time.Duration;

/**
 * The backup taking over from a master it suspects (Ladon section 4.3): it fences the master on one
 * switch chip after the other (every VS1 port but the master's own moves to VS2; each partition
 * update is one service time), then "reboots from the running image": its clock advances by the
 * modeled reboot (the baseline's whole-system restart instead takes the data plane down for the
 * restart time), the replica stops and a controller takes over the same journal, starting from the
 * state the replica folded as it persisted (it reads only the journal's last sequence number, not
 * the change log; the model-time reboot is the same either way). Then it
 * serves as master, answers the requests that waited and reports the {@link TakeoverBreakdown}.
 *
 * <p>Under the model-time kernel the take-over begins in the call of the heartbeat deadline's wake,
 * and the role keeps that call open until every chip answered its reassignment (a chip answers
 * once each of its ports has the move queued). Each move is stamped with the model time its
 * partition update ends ({@link Fencing.MovePorts#effectiveAt}): while the call is open the
 * endpoint reports nothing, so no round starts and no port passes the call's time plus the
 * lookahead from the host's endpoint; the stamp, a port-reassignment time later, lies beyond, and
 * each port routes by the new table from it on. Free of the kernel the moves are in force at once.
 */
final class TakingOverRole extends RoleBehavior {

  private static final Duration CHIP_TIMEOUT = Duration.ofSeconds(10);

  private final TakeoverRecorder takeover;
  private final Fencing fencing;
  /**
   * The take-over's own model time: from the suspicion on, each step adds its service time. What
   * else reaches the host meanwhile (a live master's replication stamped later, in a false
   * suspicion) moves the host's clock, not the take-over's steps.
   */
  private long clock;
  /** The endpoint's call the take-over began in, open until the fencing is done; null: none. */
  private GuestCall held;
  private boolean fencedYet;
  /** A fenced host's request to rejoin that came before this host serves: handled once it does. */
  private ControlPlaneHost.JoinAsBackup waitingJoin;

  private TakingOverRole(ActorContext<Command> context, HostCore host, TakeoverRecorder takeover, long suspectedAt) {
    super(context, host);
    this.takeover = takeover;
    this.clock = suspectedAt;
    this.fencing = new Fencing(host.fenceTargets, suspectedAt, host.settings.portReassignmentNs());
  }

  /** From here on the backup refuses every replication. */
  static Behavior<Command> start(ActorContext<Command> context, HostCore host, HeartbeatMonitor.Suspicion suspicion) {
    host.now = Math.max(host.now, suspicion.suspectedAt());
    TakingOverRole role = new TakingOverRole(context, host,
        new TakeoverRecorder(host.name, host.settings.takeover(), suspicion, host.wallNanos.getAsLong()),
        suspicion.suspectedAt());
    host.heartbeats.unwatchPeer();
    context.getLog().warn("Host [{}] suspects the master (last heartbeat at {} ns); taking over "
        + "({}) at {} ns", host.name, suspicion.lastSentAt(), host.settings.takeover(), suspicion.suspectedAt());
    return role.act(role.fencing.start());
  }

  @Override
  Role role() {
    return Role.TAKING_OVER;
  }

  /** Sends what the fencing's step asks for; once every chip is done, reboots. */
  private Behavior<Command> act(Fencing.Step step) {
    clock = Math.max(clock, fencing.now());
    host.now = Math.max(host.now, clock);
    if (step instanceof Fencing.ReadTable read) {
      getContext().ask(RoutingTable.class, host.fenceTargets.get(read.target()).chip(), CHIP_TIMEOUT,
          SwitchChip.GetRoutingTable::new, (table, failure) -> new TableRead(read.target(), table, failure));
      return this;
    }
    if (step instanceof Fencing.MovePorts move) {
      getContext().ask(RoutingTable.class, host.fenceTargets.get(move.target()).chip(), CHIP_TIMEOUT,
          to -> new SwitchChip.ReassignPorts(move.ports(), move.virtualSwitch(),
              held != null ? move.effectiveAt() : SwitchChip.ReassignPorts.AT_ONCE, to),
          (table, failure) -> new PortsMoved(move.target(), move.ports().size(), table, failure));
      return this;
    }
    Fencing.Done done = (Fencing.Done) step;
    takeover.portsReassigned(done.portsMoved());
    if (held != null) {
      host.guest.answer(held); // every port has its move queued: the rack may go on
      held = null;
    }
    return fenced();
  }

  /** The call the take-over began in, while the fencing goes on (it answers it when done). */
  @Override
  boolean keepsCall(GuestCall call) {
    if (fencedYet) {
      return false;
    }
    held = call;
    return true;
  }

  /** The master this host is fencing asks to rejoin already: it is answered once this host serves. */
  @Override
  Behavior<Command> onJoinAsBackup(ControlPlaneHost.JoinAsBackup msg) {
    if (waitingJoin != null) {
      return super.onJoinAsBackup(msg);
    }
    waitingJoin = msg;
    return this;
  }

  @Override
  Behavior<Command> onTableRead(TableRead msg) {
    if (msg.failure() != null) {
      getContext().getLog().error("Host [{}] cannot read switch chip {} to fence the master: {}",
          host.name, msg.target(), msg.failure().toString());
    }
    return act(fencing.tableRead(msg.target(), msg.failure() == null ? msg.table() : null));
  }

  @Override
  Behavior<Command> onPortsMoved(PortsMoved msg) {
    if (msg.failure() != null) {
      getContext().getLog().error("Host [{}] got no answer from switch chip {} to the reassignment: {}",
          host.name, msg.target(), msg.failure().toString());
    }
    return act(fencing.portsMoved(msg.target(), msg.ports(), msg.failure() == null));
  }

  private Behavior<Command> fenced() {
    fencedYet = true;
    takeover.fenced(clock);
    if (host.peer != null) {
      host.peer.tell(new Fenced(host.name, clock));
    }
    // The replica answers after every persist it started: then nothing more lands in the journal,
    // and its state is the journal's, folded as the events came: the new controller starts from it.
    host.drainReplica(state -> {
      host.stopChild(host.replica, () -> reboot(state));
      return this;
    });
    return this;
  }

  /** @param held the replica's drained state (null: it did not answer; the controller reads the journal) */
  private Behavior<Command> reboot(CurrentState held) {
    long from = clock;
    boolean ladon = host.settings.takeover() == Takeover.LADON;
    clock += ladon ? host.settings.rebootTimeNs() : host.settings.restartTimeNs();
    host.now = Math.max(host.now, clock);
    if (!ladon) {
      takeover.dataPlaneDown(from, clock);
      ResetForRestart reset = new ResetForRestart(host.name, from, clock);
      host.dataPlane.forEach(p -> p.tell(reset));
    }
    takeover.replayStarted(host.wallNanos.getAsLong());
    host.startController(host.backupLink, held, recovered -> {
      host.lastSeqNr = recovered.lastSeqNr();
      takeover.resumed(clock, host.wallNanos.getAsLong(), recovered.lastSeqNr(), host.templateSeqNr,
          host.changeLogReadBack);
      int queued = host.admission.queued();
      MasterRole master = new MasterRole(getContext(), host);
      host.serve();
      TakeoverBreakdown breakdown = takeover.breakdown(queued);
      getContext().getLog().info("Host [{}] took over: {}", host.name, breakdown);
      host.tookOver(breakdown);
      return waitingJoin == null ? master : master.onJoinAsBackup(waitingJoin);
    });
    return this;
  }
}
