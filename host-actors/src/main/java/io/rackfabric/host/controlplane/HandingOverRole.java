package io.rackfabric.host.controlplane;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.ActorContext;
import io.rackfabric.host.controlplane.ControlPlaneHost.Command;
import io.rackfabric.host.controlplane.ControlPlaneHost.Fenced;
import io.rackfabric.host.controlplane.ControlPlaneHost.HandOver;
import io.rackfabric.host.controlplane.ControlPlaneHost.HeartbeatTick;
import io.rackfabric.host.controlplane.ControlPlaneHost.PeerGone;
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
 * backup (or, standing down, stops serving). No request is lost or served twice. A backup that is
 * gone (death watch) or cut off, or refuses (behind, not a backup), or does not answer the
 * hand-over within {@code peer-answer-timeout} of model time ({@link PeerAnswerDeadline}), ends it:
 * this host serves on as master and the request is answered with the reason. A switchover made is kept as a
 * {@link SwitchoverBreakdown}.
 */
final class HandingOverRole extends RoleBehavior {

  private final Switchover request;
  /** Model time the request was taken: admission closed from here. */
  private final long requestedAt;
  /** Model time the hand-over left, once nothing was in flight (-1: not yet). */
  private long quiescedAt = -1;
  /** Replications from the new master that came before this host's replica was up. */
  private final List<Replicate> heldReplicates = new ArrayList<>();
  private boolean handOverSent;
  /** The backup answered that it took over: the rest is this host's own. */
  private boolean tookOver;
  private PeerGone goneAfterTakeOver;

  private HandingOverRole(ActorContext<Command> context, HostCore host, Switchover request) {
    super(context, host);
    this.request = request;
    host.now = Math.max(host.now, request.at());
    this.requestedAt = host.now;
  }

  static Behavior<Command> start(ActorContext<Command> context, HostCore host, Switchover request) {
    HandingOverRole handing = new HandingOverRole(context, host, request);
    context.getLog().info("Host [{}]: switchover asked at {} ns; quiescing ({} in flight)", host.name,
        handing.requestedAt, host.admission.inFlight());
    host.admission.close();
    host.heartbeats.watchPeer(); // a backup that is gone cannot take over: the switchover ends, this host serves on
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
      quiescedAt = host.now;
      host.answerDeadline.arm(quiescedAt);
      host.peer.tell(new HandOver(state.lastSeqNr(), request.standDown(), host.now, getContext().getSelf()));
      return this;
    });
    return this;
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

  @Override
  Behavior<Command> onReplicate(Replicate msg) {
    heldReplicates.add(msg); // the new master replicates before this host's replica is up
    return this;
  }

  /**
   * The backup stopped. Before its answer: it did not take over (death watch tells of an actor's
   * end after every message it sent here), so this host serves on. After it: the new master is
   * gone, which the backup this host becomes is told.
   */
  @Override
  Behavior<Command> onPeerGone(PeerGone msg) {
    if (!msg.peer().equals(host.peer)) {
      return this;
    }
    if (tookOver) {
      goneAfterTakeOver = msg;
      return this;
    }
    return resume("the backup is gone (its actor stopped or its node left): nothing to hand over to");
  }

  @Override
  Behavior<Command> onFenced(Fenced msg) {
    host.arrived(msg.at());
    host.answerDeadline.disarm();
    return FencedRole.fence(getContext(), host, "fenced by " + msg.by() + " at " + msg.at() + " ns", request);
  }

  @Override
  Behavior<Command> onTookOver(TookOver msg) {
    host.arrived(msg.sentAt());
    host.answerDeadline.disarm();
    if (!msg.ok()) {
      return resume(msg.detail());
    }
    tookOver = true;
    host.heartbeats.stopHeartbeats();
    ActorRef<Command> newMaster = host.peer;
    host.stopChild(host.controller, () -> {
      RoleBehavior next;
      if (request.standDown()) {
        next = FencedRole.standDown(getContext(), host, "stood down in a switchover");
      } else {
        host.startReplica();
        host.heartbeats.resetWatch();
        host.heartbeats.watchHeartbeat(msg.sentAt()); // the new master's answer is its first sign of life
        next = new BackupRole(getContext(), host);
      }
      heldReplicates.forEach(next::onReplicate);
      // In arrival order, after the hand-over: the new master serves each once.
      // (A request that came on a guest channel is refused instead: its client tries the new master.)
      int held = 0;
      for (var op : host.admission.takeQueued()) {
        held++;
        if (host.channelRequests.arrivedAt(op) >= 0) {
          host.refuse(op, next.role());
        } else {
          newMaster.tell(new Submit(op));
        }
      }
      SwitchoverBreakdown b = new SwitchoverBreakdown(host.name, requestedAt, quiescedAt, msg.sentAt(), host.now,
          msg.lastSeqNr(), held);
      host.switchovers.add(b);
      getContext().getLog().info("Host [{}] handed over at lastSeqNr={}: quiesce {} ns, hand-over {} ns, {} requests"
          + " passed on; now {}", host.name, msg.lastSeqNr(), b.quiesceNs(), b.handOverNs(), held, next.role());
      request.replyTo().tell(new RoleChanged(host.name, next.role(), true, host.lastSeqNr,
          "handed over at lastSeqNr=" + msg.lastSeqNr() + " in " + b.totalNs() + " ns of model time"));
      return goneAfterTakeOver == null ? next : next.onPeerGone(goneAfterTakeOver);
    });
    return this;
  }

  /** The backup did not answer the hand-over by model time {@code at} (peer-answer-timeout): this host serves on. */
  @Override
  Behavior<Command> onNoAnswer(long at) {
    return resume("the backup did not answer the hand-over by " + at + " ns (peer-answer-timeout="
        + host.settings.peerAnswerTimeoutNs() + "ns after it left)");
  }

  /** The switchover failed: this host serves on as master; what the backup replicated is refused. */
  private Behavior<Command> resume(String detail) {
    host.answerDeadline.disarm();
    getContext().getLog().warn("Host [{}] switchover failed: {}", host.name, detail);
    MasterRole master = new MasterRole(getContext(), host);
    host.serve();
    heldReplicates.forEach(master::onReplicate);
    request.replyTo().tell(new RoleChanged(host.name, Role.MASTER, false, host.lastSeqNr, detail));
    return master;
  }
}
