package io.rackfabric.host.controlplane;

import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.ActorContext;
import io.rackfabric.host.controlplane.ControlPlaneHost.Command;
import io.rackfabric.host.controlplane.ControlPlaneHost.HandOver;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import io.rackfabric.host.controlplane.ControlPlaneHost.TookOver;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Replication;

/**
 * The backup taking over in a managed switchover (Multi-peer "Redundancy"): once its replica holds
 * the master's last sequence number it stops, a controller takes over the same journal from the
 * replica's state (no replay of the change log) and the host becomes master, with the old master as its backup (or none, if it stands down). A replica
 * behind the master refuses the hand-over and the host stays the backup.
 */
final class AcceptingHandOverRole extends RoleBehavior {

  private final HandOver handOver;

  private AcceptingHandOverRole(ActorContext<Command> context, HostCore host, HandOver handOver) {
    super(context, host);
    this.handOver = handOver;
  }

  static Behavior<Command> start(ActorContext<Command> context, HostCore host, HandOver handOver) {
    AcceptingHandOverRole role = new AcceptingHandOverRole(context, host, handOver);
    host.heartbeats.resetWatch();
    host.drainReplica(role::replicaDrained);
    return role;
  }

  @Override
  Role role() {
    return Role.TAKING_OVER;
  }

  private Behavior<Command> replicaDrained(Controller.CurrentState state) {
    if (state == null || state.lastSeqNr() != handOver.lastSeqNr()) {
      BackupRole backup = new BackupRole(getContext(), host);
      // What queued meanwhile goes back: a request on a guest channel is refused (its client
      // tries the master, its call ends), any other goes to the master that stays.
      host.admission.takeQueued().forEach(op -> {
        if (host.channelRequests.arrivedAt(op) >= 0) {
          host.refuse(op, Role.BACKUP);
        } else {
          handOver.from().tell(new ControlPlaneHost.Submit(op));
        }
      });
      host.heartbeats.watchHeartbeat(handOver.sentAt());
      handOver.from().tell(new TookOver(false, state == null ? host.lastSeqNr : state.lastSeqNr(), host.now,
          state == null ? "the replica did not answer"
              : "lastSeqNr: master=" + handOver.lastSeqNr() + " backup=" + state.lastSeqNr()));
      return backup;
    }
    host.stopChild(host.replica, () -> {
      boolean standDown = handOver.standDown();
      host.startController(standDown ? Replication.none() : host.link(handOver.from()), state, recovered -> {
        host.lastSeqNr = recovered.lastSeqNr();
        MasterRole master = new MasterRole(getContext(), host);
        host.peer = standDown ? null : handOver.from();
        if (host.peer != null) {
          host.heartbeats.startHeartbeats();
        }
        host.serve();
        handOver.from().tell(new TookOver(true, host.lastSeqNr, host.now, host.name + " is master"));
        return master;
      });
      return this;
    });
    return this;
  }
}
