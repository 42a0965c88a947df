package io.rackfabric.host.controlplane;

import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.ActorContext;
import io.rackfabric.host.controlplane.ControlPlaneHost.Command;
import io.rackfabric.host.controlplane.ControlPlaneHost.Fenced;
import io.rackfabric.host.controlplane.ControlPlaneHost.HeartbeatTick;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import io.rackfabric.host.controlplane.ControlPlaneHost.Switchover;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Controller.Status;

/**
 * The master: serves requests with a bounded number in flight (its controller replicates each
 * operation's events to the backup before acknowledging it) and beats to the backup. It is fenced
 * when the backup says so or an operation was NOT_REPLICATED, and hands over on a
 * {@link Switchover}.
 */
final class MasterRole extends RoleBehavior {

  MasterRole(ActorContext<Command> context, HostCore host) {
    super(context, host);
  }

  @Override
  Role role() {
    return Role.MASTER;
  }

  @Override
  Behavior<Command> afterAnswer(OperationResult result) {
    if (result.status() == Status.NOT_REPLICATED) {
      return FencedRole.fence(getContext(), host, "an operation was not replicated: " + result.detail(), null);
    }
    return super.afterAnswer(result);
  }

  @Override
  Behavior<Command> onHeartbeatTick(HeartbeatTick tick) {
    host.heartbeats.beat();
    return this;
  }

  @Override
  Behavior<Command> onHeartbeatWake(long at) {
    host.heartbeats.beatAt(at);
    return this;
  }

  /**
   * Hands over to the backup ({@link HandingOverRole}); refused while there is none to hand to: no
   * backup (a master after a take-over, until the fenced host rejoins) or the link to it cut.
   */
  @Override
  Behavior<Command> onSwitchover(Switchover msg) {
    if (!host.hasBackup()) {
      return refuseSwitchover(msg, host.name + " is MASTER without a backup (a take-over leaves none until the"
          + " fenced host rejoins)");
    }
    if (host.cut) {
      return refuseSwitchover(msg, "the link from " + host.name + " to its backup is cut");
    }
    return HandingOverRole.start(getContext(), host, msg);
  }

  /** A fenced host asks to come back as backup ({@link AdmittingBackupRole}); one backup at a time. */
  @Override
  Behavior<Command> onJoinAsBackup(RejoinProtocol.JoinAsBackup msg) {
    if (!host.backupLink.canAdmit()) {
      host.arrived(msg.sentAt());
      msg.from().tell(new RejoinProtocol.JoinRefused(host.name + " has a backup already", -1, host.now));
      return this;
    }
    return AdmittingBackupRole.start(getContext(), host, msg);
  }

  /**
   * The backup fenced this master on the switch. Sent across a cut link, the notice crosses when the
   * cut heals (as a TCP connection delivers it after the heal in a partition of node JVMs): until
   * then this master believes it is master, but serves nothing (it cannot replicate).
   */
  @Override
  Behavior<Command> onFenced(Fenced msg) {
    if (host.cut) {
      getContext().getLog().info("Host [{}]: fencing notice from {} (fenced at {} ns) waits on the cut link",
          host.name, msg.by(), msg.at());
      host.fencedOverCut = msg;
      return this;
    }
    host.arrived(msg.at());
    return FencedRole.fence(getContext(), host, "fenced by " + msg.by() + " at " + msg.at() + " ns", null);
  }

  /**
   * A cut healed: a fencing notice that waited on the link arrives now, and this master, fenced on
   * the switch while it was cut off, steps down ({@link FencedRole#foundFenced}).
   */
  @Override
  Behavior<Command> onPeerCut(ControlPlaneHost.PeerCut msg) {
    super.onPeerCut(msg);
    Fenced waited = host.fencedOverCut;
    if (msg.cut() || waited == null) {
      return this;
    }
    host.fencedOverCut = null;
    host.arrived(waited.at());
    return FencedRole.foundFenced(getContext(), host, waited, msg.at() < 0 ? host.now : msg.at());
  }
}
