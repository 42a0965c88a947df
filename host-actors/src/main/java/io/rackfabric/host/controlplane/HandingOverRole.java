package io.rackfabric.host.controlplane;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.ActorContext;
import io.rackfabric.host.controlplane.ControlPlaneHost.Command;
import io.rackfabric.host.controlplane.ControlPlaneHost.Fenced;
import io.rackfabric.host.controlplane.ControlPlaneHost.HandOver;
import io.rackfabric.host.controlplane.ControlPlaneHost.HeartbeatTick;
import io.rackfabric.host.controlplane.ControlPlaneHost.Replicate;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import io.rackfabric.host.controlplane.ControlPlaneHost.Submit;
import io.rackfabric.host.controlplane.ControlPlaneHost.RoleChanged;
import io.rackfabric.host.controlplane.ControlPlaneHost.Switchover;
import io.rackfabric.host.controlplane.ControlPlaneHost.TookOver;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Controller.Status;
import java.util.ArrayList;
import java.util.List;

/**
 * The master of a managed switchover (Multi-peer "Redundancy"): it quiesces (new requests wait),
 * lets every outstanding operation be acknowledged, hands over to the backup at its last sequence
 * number, forwards the requests that waited to the new master in arrival order and becomes its
 * backup (or, standing down, stops serving). No request is lost or served twice.
 */
final class HandingOverRole extends RoleBehavior {

  private final Switchover request;
  /** Replications from the new master that came before this host's replica was up. */
  private final List<Replicate> heldReplicates = new ArrayList<>();
  private boolean handOverSent;

  private HandingOverRole(ActorContext<Command> context, HostCore host, Switchover request) {
    super(context, host);
    this.request = request;
  }

  static Behavior<Command> start(ActorContext<Command> context, HostCore host, Switchover request) {
    HandingOverRole handing = new HandingOverRole(context, host, request);
    host.admission.close();
    return handing.handOverWhenQuiet();
  }

  @Override
  Role role() {
    return Role.HANDING_OVER;
  }

  @Override
  Behavior<Command> afterAnswer(OperationResult result) {
    if (result.status() == Status.NOT_REPLICATED) {
      return FencedRole.fence(getContext(), host, "an operation was not replicated: " + result.detail(), request);
    }
    return handOverWhenQuiet();
  }

  /** Once nothing is in flight: the controller's last sequence number goes to the backup. */
  private Behavior<Command> handOverWhenQuiet() {
    if (handOverSent || host.admission.inFlight() > 0) {
      return this;
    }
    handOverSent = true;
    host.readController(state -> {
      if (state == null) {
        return resume("could not read the controller's state");
      }
      host.peer.tell(new HandOver(state.lastSeqNr(), request.standDown(), host.now, getContext().getSelf()));
      return this;
    });
    return this;
  }

  @Override
  Behavior<Command> onHeartbeatTick(HeartbeatTick tick) {
    host.beat();
    return this;
  }

  @Override
  Behavior<Command> onHeartbeatWake(long at) {
    host.beatAt(at);
    return this;
  }

  @Override
  Behavior<Command> onReplicate(Replicate msg) {
    heldReplicates.add(msg); // the new master replicates before this host's replica is up
    return this;
  }

  @Override
  Behavior<Command> onFenced(Fenced msg) {
    host.arrived(msg.at());
    return FencedRole.fence(getContext(), host, "fenced by " + msg.by() + " at " + msg.at() + " ns", request);
  }

  @Override
  Behavior<Command> onTookOver(TookOver msg) {
    host.arrived(msg.sentAt());
    if (!msg.ok()) {
      return resume(msg.detail());
    }
    host.stopHeartbeats();
    ActorRef<Command> newMaster = host.peer;
    host.stopChild(host.controller, () -> {
      RoleBehavior next;
      if (request.standDown()) {
        next = FencedRole.standDown(getContext(), host, "stood down in a switchover");
      } else {
        host.startReplica();
        host.resetWatch();
        next = new BackupRole(getContext(), host);
      }
      heldReplicates.forEach(next::onReplicate);
      // In arrival order, after the hand-over: the new master serves each once.
      // (A request that came on a guest channel is refused instead: its client tries the new master.)
      host.admission.takeQueued().forEach(op -> {
        if (host.channelRequests.arrivedAt(op) >= 0) {
          host.refuse(op, next.role());
        } else {
          newMaster.tell(new Submit(op));
        }
      });
      request.replyTo().tell(new RoleChanged(host.name, next.role(), true, host.lastSeqNr,
          "handed over at lastSeqNr=" + msg.lastSeqNr()));
      return next;
    });
    return this;
  }

  /** The switchover failed: this host serves on as master; what the backup replicated is refused. */
  private Behavior<Command> resume(String detail) {
    getContext().getLog().warn("Host [{}] switchover failed: {}", host.name, detail);
    MasterRole master = new MasterRole(getContext(), host);
    host.serve();
    heldReplicates.forEach(master::onReplicate);
    request.replyTo().tell(new RoleChanged(host.name, Role.MASTER, false, host.lastSeqNr, detail));
    return master;
  }
}
