package io.rackfabric.host.controlplane;

import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.ActorContext;
import io.rackfabric.host.controlplane.ControlPlaneHost.Command;
import io.rackfabric.host.controlplane.ControlPlaneHost.HandOver;
import io.rackfabric.host.controlplane.ControlPlaneHost.Heartbeat;
import io.rackfabric.host.controlplane.ControlPlaneHost.PeerGone;
import io.rackfabric.host.controlplane.ControlPlaneHost.Pair;
import io.rackfabric.host.controlplane.ControlPlaneHost.Paired;
import io.rackfabric.host.controlplane.ControlPlaneHost.PeerCut;
import io.rackfabric.host.controlplane.ControlPlaneHost.Replicate;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import io.rackfabric.persistence.replication.ControllerReplica;

/**
 * The backup: persists what the master replicates in a {@link ControllerReplica} on its own
 * journal (what comes while the replica writes goes in its next write: {@link ReplicaFeed}) and watches the master's heartbeats ({@link HeartbeatMonitor}, in model time only). When
 * the master is suspected it takes over ({@link TakingOverRole}); a master's hand-over in a managed
 * switchover makes it master too ({@link AcceptingHandOverRole}).
 */
final class BackupRole extends RoleBehavior {

  BackupRole(ActorContext<Command> context, HostCore host) {
    super(context, host);
  }

  /** A backup from the start: a replica on the journal, empty or not. */
  static Behavior<Command> start(ActorContext<Command> context, HostCore host) {
    host.startReplica();
    return new BackupRole(context, host);
  }

  @Override
  Role role() {
    return Role.BACKUP;
  }

  /**
   * Only a master refuses a join: a backup that hears it joined a master that gave up on its
   * admission (its answer came too late) and will not send it heartbeats. Left watching, it would
   * suspect a live master and fence it; it stands down instead and may ask to rejoin.
   */
  @Override
  Behavior<Command> onJoinRefused(RejoinProtocol.JoinRefused msg) {
    host.arrived(msg.sentAt());
    Behavior<Command> fenced = FencedRole.fence(getContext(), host, "its master ended the admission: " + msg.reason(),
        null);
    host.stopReplica();
    return fenced;
  }

  /** A master-to-be shows its booted state: it must be this replica's, at the same sequence number. */
  @Override
  Behavior<Command> onPair(Pair msg) {
    host.arrived(msg.sentAt());
    host.drainReplica(state -> {
      String problem = state == null ? "the replica did not answer"
          : state.lastSeqNr() != msg.lastSeqNr()
              ? "lastSeqNr: master=" + msg.lastSeqNr() + " backup=" + state.lastSeqNr()
              : !state.state().equals(msg.state())
                  ? "the states differ at lastSeqNr=" + state.lastSeqNr()
                      + ": boot both hosts with the same operations (the same template image)"
                  : null;
      if (problem != null) {
        msg.master().tell(new Paired(false, state == null ? host.lastSeqNr : state.lastSeqNr(), host.now, problem,
            host.guest.address()));
        return this;
      }
      host.lastSeqNr = state.lastSeqNr();
      host.peer = msg.master();
      host.peerGuest = msg.guest();
      host.heartbeats.resetWatch();
      host.heartbeats.watchPeer();
      host.heartbeats.watchHeartbeat(msg.sentAt()); // the pairing is the master's first sign of life
      msg.master().tell(new Paired(true, host.lastSeqNr, host.now, "paired", host.guest.address()));
      return this;
    });
    return this;
  }

  @Override
  Behavior<Command> onHeartbeat(Heartbeat msg) {
    if (host.cut) {
      return this; // sent before the cut, arrived after it: the harness's word comes first
    }
    if (!msg.master().equals(host.peer)) {
      host.peer = msg.master();
      host.heartbeats.watchPeer();
    }
    long arrivedAt = msg.sentAt() + host.settings.linkLatencyNs();
    if (!msg.held()) {
      host.heartbeats.watchHeartbeat(msg.sentAt());
    }
    host.heartbeats.monitor.tick(arrivedAt);
    return checkSuspicion();
  }

  /**
   * A heartbeat on the guest channel (model-time heartbeats): it arrived at model time {@code at},
   * and the deadline moves to an interval count after it.
   */
  @Override
  Behavior<Command> onHeartbeatArrived(Heartbeat msg, long at) {
    if (host.cut) {
      return this; // the run's harness cut the link at a model time before this arrival
    }
    if (!msg.master().equals(host.peer)) {
      host.peer = msg.master();
      host.heartbeats.watchPeer();
    }
    if (!msg.held()) {
      host.heartbeats.heartbeatArrived(msg.sentAt(), at);
    }
    return this;
  }

  /** The deadline's wake: nothing from the master arrives before {@code at} that has not arrived. */
  @Override
  Behavior<Command> onHeartbeatDeadline(long at) {
    host.heartbeats.monitor.reached(at);
    if (host.heartbeats.monitor.watching() && !host.heartbeats.monitor.suspected() && at > host.heartbeats.monitor.deadline()) {
      host.now = Math.max(host.now, at);
    }
    return checkSuspicion();
  }

  @Override
  Behavior<Command> onPeerGone(PeerGone msg) {
    if (!msg.peer().equals(host.peer)) {
      return this;
    }
    getContext().getLog().info("Host [{}]: the master stopped; it is suspected at the heartbeat deadline", host.name);
    return masterSilent();
  }

  @Override
  Behavior<Command> onPeerCut(PeerCut msg) {
    super.onPeerCut(msg);
    if (!msg.cut()) {
      return this;
    }
    return masterSilent();
  }

  /**
   * Nothing more comes from the master. With model-time heartbeats running, the suspicion comes at
   * the deadline's wake, now one that keeps the rack running until it; otherwise at once, at the
   * deadline's model time.
   */
  private Behavior<Command> masterSilent() {
    if (host.guest.running()) {
      host.heartbeats.masterKnownGone();
      return this;
    }
    host.heartbeats.monitor.masterGone();
    return checkSuspicion();
  }

  private Behavior<Command> checkSuspicion() {
    return host.heartbeats.monitor.check().map(s -> TakingOverRole.start(getContext(), host, s)).orElse(this);
  }

  @Override
  Behavior<Command> onReplicate(Replicate msg) {
    if (host.replica == null) {
      return super.onReplicate(msg);
    }
    host.arrived(msg.sentAt());
    host.feedReplica(host.replicaFeed.arrived(msg));
    return this;
  }

  @Override
  Behavior<Command> onHandOver(HandOver msg) {
    host.arrived(msg.sentAt());
    return AcceptingHandOverRole.start(getContext(), host, msg);
  }
}
