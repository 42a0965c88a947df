package io.rackfabric.host.controlplane;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import io.rackfabric.host.controlplane.ControlPlaneHost.BecomeBackup;
import io.rackfabric.host.controlplane.ControlPlaneHost.BecomeMaster;
import io.rackfabric.host.controlplane.ControlPlaneHost.Command;
import io.rackfabric.host.controlplane.ControlPlaneHost.HandOver;
import io.rackfabric.host.controlplane.RejoinProtocol.JoinAnswered;
import io.rackfabric.host.controlplane.RejoinProtocol.JoinAsBackup;
import io.rackfabric.host.controlplane.RejoinProtocol.JoinRefused;
import io.rackfabric.host.controlplane.RejoinProtocol.Joined;
import io.rackfabric.host.controlplane.ControlPlaneHost.Pair;
import io.rackfabric.host.controlplane.ControlPlaneHost.Paired;
import io.rackfabric.host.controlplane.ControlPlaneHost.Rejoin;
import io.rackfabric.host.controlplane.ControlPlaneHost.Replicate;
import io.rackfabric.host.controlplane.ControlPlaneHost.Replicated;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import io.rackfabric.host.controlplane.ControlPlaneHost.RoleChanged;
import io.rackfabric.host.controlplane.RejoinProtocol.StateTransfer;
import io.rackfabric.host.controlplane.ControlPlaneHost.Switchover;
import io.rackfabric.host.controlplane.ControlPlaneHost.TookOver;
import io.rackfabric.host.controlplane.RejoinProtocol.TransferWritten;

/**
 * The pair protocol's answers of a host that does not play the part a message asks for: a role
 * change asked of a host past its boot, a pairing, hand-over or replication sent to a host that is
 * not the backup, a rejoin's messages to a host that is not the master or not rejoining. Each
 * answer names what the host is, so that the asker does not wait. A role overrides the messages of
 * its own part; {@link RoleBehavior} dispatches every message and holds what all roles answer alike.
 */
abstract class PeerAnswers extends AbstractBehavior<Command> {

  final HostCore host;

  PeerAnswers(ActorContext<Command> context, HostCore host) {
    super(context);
    this.host = host;
  }

  abstract Role role();

  // ---- role changes: boot, pairing, switchover

  Behavior<Command> onBecomeBackup(BecomeBackup msg) {
    return refuseRoleChange(msg.replyTo());
  }

  Behavior<Command> onBecomeMaster(BecomeMaster msg) {
    return refuseRoleChange(msg.replyTo());
  }

  private Behavior<Command> refuseRoleChange(ActorRef<RoleChanged> replyTo) {
    replyTo.tell(new RoleChanged(host.name, role(), false, host.lastSeqNr, host.name + " is " + role() + ", not BOOTING"));
    return this;
  }

  Behavior<Command> onPair(Pair msg) {
    host.arrived(msg.sentAt());
    msg.master().tell(new Paired(false, host.lastSeqNr, host.now, host.name + " is " + role() + ", not a backup",
        host.guest.address()));
    return this;
  }

  /** A pairing's answer nobody waits for. */
  Behavior<Command> onPaired(Paired msg) {
    return this;
  }

  /** Only a master hands over: any other role refuses, naming what it is. */
  Behavior<Command> onSwitchover(Switchover msg) {
    return refuseSwitchover(msg, host.name + " is " + role() + ", not the master: ask the master for a switchover");
  }

  final Behavior<Command> refuseSwitchover(Switchover msg, String reason) {
    getContext().getLog().info("Host [{}] refuses a switchover: {}", host.name, reason);
    msg.replyTo().tell(new RoleChanged(host.name, role(), false, host.lastSeqNr, "no switchover: " + reason));
    return this;
  }

  Behavior<Command> onHandOver(HandOver msg) {
    host.arrived(msg.sentAt());
    msg.from().tell(new TookOver(false, host.lastSeqNr, host.now, host.name + " is " + role() + ", not the backup"));
    return this;
  }

  /** A hand-over's answer nobody waits for. */
  Behavior<Command> onTookOver(TookOver msg) {
    return this;
  }

  // ---- replication

  Behavior<Command> onReplicate(Replicate msg) {
    host.arrived(msg.sentAt());
    msg.replyTo().tell(new Replicated(false, host.lastSeqNr, host.now, host.name + " is " + role() + ", not the backup"));
    return this;
  }

  // ---- rejoin (RejoiningRole, AdmittingBackupRole)

  /** Only a fenced host rejoins. */
  Behavior<Command> onRejoin(Rejoin msg) {
    msg.replyTo().tell(new RoleChanged(host.name, role(), false, host.lastSeqNr,
        host.name + " is " + role() + ", not FENCED: nothing to rejoin"));
    return this;
  }

  /** Only a master admits a backup. */
  Behavior<Command> onJoinAsBackup(JoinAsBackup msg) {
    host.arrived(msg.sentAt());
    msg.from().tell(new JoinRefused(host.name + " is " + role() + ", not the master", -1, host.now));
    return this;
  }

  /** A refusal nobody waits for. */
  Behavior<Command> onJoinRefused(JoinRefused msg) {
    return this;
  }

  /** A transfer nobody asked for: its master is told, so that it does not wait. */
  Behavior<Command> onStateTransfer(StateTransfer msg) {
    host.arrived(msg.sentAt());
    msg.replyTo().tell(new Joined(false, host.lastSeqNr, host.now, host.name + " is " + role() + ", not rejoining"));
    return this;
  }

  /** A narrowing for a join this host no longer makes: nobody waits for the answer. */
  Behavior<Command> onShowDigests(RejoinProtocol.ShowDigests msg) {
    return this;
  }

  /** Digests for a narrowing this host no longer makes. */
  Behavior<Command> onDigests(RejoinProtocol.Digests msg) {
    return this;
  }

  Behavior<Command> onTransferWritten(TransferWritten msg) {
    return this;
  }

  Behavior<Command> onJoinAnswered(JoinAnswered msg) {
    return this;
  }
}
