package io.rackfabric.host.controlplane;

import akka.actor.typed.Behavior;
import akka.actor.typed.PostStop;
import akka.actor.typed.Terminated;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Receive;
import io.rackfabric.host.controlplane.ControlPlaneHost.AnswerDeadline;
import io.rackfabric.host.controlplane.ControlPlaneHost.Answered;
import io.rackfabric.host.controlplane.ControlPlaneHost.BecomeBackup;
import io.rackfabric.host.controlplane.ControlPlaneHost.BecomeMaster;
import io.rackfabric.host.controlplane.ControlPlaneHost.Command;
import io.rackfabric.host.controlplane.ControlPlaneHost.Fenced;
import io.rackfabric.host.controlplane.ControlPlaneHost.GetControllerState;
import io.rackfabric.host.controlplane.ControlPlaneHost.GetStatus;
import io.rackfabric.host.controlplane.ControlPlaneHost.GetTakeovers;
import io.rackfabric.host.controlplane.ControlPlaneHost.HandOver;
import io.rackfabric.host.controlplane.ControlPlaneHost.Heartbeat;
import io.rackfabric.host.controlplane.ControlPlaneHost.HeartbeatTick;
import io.rackfabric.host.controlplane.ControlPlaneHost.Called;
import io.rackfabric.host.controlplane.ControlPlaneHost.ClientRequest;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.host.controlplane.RejoinProtocol.HistoryRead;
import io.rackfabric.host.controlplane.ControlPlaneHost.HoldHeartbeats;
import io.rackfabric.host.controlplane.RejoinProtocol.JoinAnswered;
import io.rackfabric.host.controlplane.RejoinProtocol.JoinAsBackup;
import io.rackfabric.host.controlplane.RejoinProtocol.JoinRefused;
import io.rackfabric.host.controlplane.ControlPlaneHost.Rejoin;
import io.rackfabric.host.controlplane.RejoinProtocol.StateTransfer;
import io.rackfabric.host.controlplane.ControlPlaneHost.StepDownWritten;
import io.rackfabric.host.controlplane.RejoinProtocol.TransferWritten;
import io.rackfabric.host.controlplane.ControlPlaneHost.PeerGone;
import io.rackfabric.host.controlplane.ControlPlaneHost.Pair;
import io.rackfabric.host.controlplane.ControlPlaneHost.Paired;
import io.rackfabric.host.controlplane.ControlPlaneHost.PeerCut;
import io.rackfabric.host.controlplane.ControlPlaneHost.PortsMoved;
import io.rackfabric.host.controlplane.ControlPlaneHost.ReplicaAnswered;
import io.rackfabric.host.controlplane.ControlPlaneHost.Replicate;
import io.rackfabric.host.controlplane.ControlPlaneHost.Replicated;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import io.rackfabric.host.controlplane.ControlPlaneHost.StateRead;
import io.rackfabric.host.controlplane.ControlPlaneHost.SubscribeDataPlane;
import io.rackfabric.host.controlplane.ControlPlaneHost.SubscribePageChanges;
import io.rackfabric.host.controlplane.ControlPlaneHost.SubscribeTakeovers;
import io.rackfabric.host.controlplane.ControlPlaneHost.Submit;
import io.rackfabric.host.controlplane.ControlPlaneHost.Switchover;
import io.rackfabric.host.controlplane.ControlPlaneHost.TableRead;
import io.rackfabric.host.controlplane.ControlPlaneHost.Takeovers;
import io.rackfabric.host.controlplane.ControlPlaneHost.TookOver;
import io.rackfabric.host.controlplane.ControlPlaneHost.UseFenceTargets;
import io.rackfabric.persistence.controller.Controller.OperationResult;

/**
 * One role of a management host as a behavior. Every message goes to a method here; each method
 * gives the answer of a host that does not play the part the message asks for (a request to a
 * backup is NOT_MASTER, a heartbeat to a master means nothing; the other host's protocol messages
 * are answered in {@link PeerAnswers}), and a role overrides the methods of its own part. What
 * every role answers alike (its status, its controller's state, subscriptions, a child's answers)
 * is final here.
 */
abstract class RoleBehavior extends PeerAnswers {

  RoleBehavior(ActorContext<Command> context, HostCore host) {
    super(context, host);
    host.current = this;
  }

  @Override
  public final Receive<Command> createReceive() {
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
        .onMessage(AnswerDeadline.class, this::onAnswerDeadlineTimer)
        .onMessage(Called.class, this::onCalled)
        .onMessage(ControlPlaneHost.FabricDatabaseAnswered.class, this::onFabricDatabaseAnswered)
        .onMessage(ControlPlaneHost.FabricStateRead.class, this::onFabricStateRead)
        .onMessage(Heartbeat.class, this::onHeartbeat)
        .onMessage(PeerGone.class, this::onPeerGone)
        .onMessage(PeerCut.class, this::onPeerCut)
        .onMessage(Replicate.class, this::onReplicate)
        .onMessage(ReplicaAnswered.class, this::onReplicaAnswered)
        .onMessage(Fenced.class, this::onFenced)
        .onMessage(StateRead.class, host::stateRead)
        .onMessage(Rejoin.class, this::onRejoin)
        .onMessage(JoinAsBackup.class, this::onJoinAsBackup)
        .onMessage(JoinRefused.class, this::onJoinRefused)
        .onMessage(StateTransfer.class, this::onStateTransfer)
        .onMessage(RejoinProtocol.ShowDigests.class, this::onShowDigests)
        .onMessage(RejoinProtocol.Digests.class, this::onDigests)
        .onMessage(HistoryRead.class, this::historyRead)
        .onMessage(TransferWritten.class, this::onTransferWritten)
        .onMessage(JoinAnswered.class, this::onJoinAnswered)
        .onMessage(StepDownWritten.class, this::onStepDownWritten)
        .onMessage(TableRead.class, this::onTableRead)
        .onMessage(PortsMoved.class, this::onPortsMoved)
        .onSignal(Terminated.class, host::terminated)
        .onSignal(PostStop.class, stopped -> {
          host.guest.detach();
          return Behaviors.same();
        })
        .build();
  }

  // ---- requests

  /**
   * A master serves a request; one handing over or taking over holds it until a controller serves
   * again (then it is served, or forwarded to the new master); any other role answers NOT_MASTER.
   */
  Behavior<Command> onSubmit(Submit msg) {
    if (host.cutOffMaster(role())) {
      msg.operation().replyTo().tell(host.cutOff());
      return this;
    }
    switch (role()) {
      case MASTER, HANDING_OVER, TAKING_OVER -> host.admit(msg.operation(), role());
      default -> msg.operation().replyTo().tell(host.notMaster(role()));
    }
    return this;
  }

  private Behavior<Command> onAnswered(Answered msg) {
    return afterAnswer(host.answered(msg));
  }

  /** Once an operation was answered: sends what waited (while admission is open). */
  Behavior<Command> afterAnswer(OperationResult result) {
    host.sendWaiting();
    return this;
  }

  private Behavior<Command> onGetControllerState(GetControllerState msg) {
    host.tellState(msg.replyTo());
    return this;
  }

  private Behavior<Command> onGetStatus(GetStatus msg) {
    msg.replyTo().tell(host.status(role()));
    return this;
  }

  // ---- configuration and subscriptions

  private Behavior<Command> onUseFenceTargets(UseFenceTargets msg) {
    host.fenceTargets = msg.targets();
    return this;
  }

  private Behavior<Command> onSubscribeTakeovers(SubscribeTakeovers msg) {
    host.takeoverSubscribers.add(msg.subscriber());
    host.takeovers.forEach(msg.subscriber()::tell);
    return this;
  }

  private Behavior<Command> onGetTakeovers(GetTakeovers msg) {
    msg.replyTo().tell(new Takeovers(host.name, host.takeovers, host.switchovers));
    return this;
  }

  private Behavior<Command> onSubscribeDataPlane(SubscribeDataPlane msg) {
    host.dataPlane.add(msg.participant());
    return this;
  }

  private Behavior<Command> onSubscribePageChanges(SubscribePageChanges msg) {
    host.pageWatchers.add(msg.subscriber());
    return this;
  }

  // ---- heartbeats and the MMH-BMH link

  private Behavior<Command> onHoldHeartbeats(HoldHeartbeats msg) {
    host.holdHeartbeats = msg.hold();
    return this;
  }

  /** Only a master beats. */
  Behavior<Command> onHeartbeatTick(HeartbeatTick tick) {
    host.heartbeats.stopHeartbeats();
    return this;
  }

  /** Only a backup watches: during a take-over or a hand-over the old master's beats mean nothing. */
  Behavior<Command> onHeartbeat(Heartbeat msg) {
    return this;
  }

  /**
   * A call of the host's endpoint (model-time heartbeats, see {@link HostGuest}): handled by the
   * role, then answered, after everything it caused was sent.
   */
  private Behavior<Command> onCalled(Called msg) {
    GuestCall call = msg.call();
    Behavior<Command> next = this;
    if (host.fabricDatabase.called(call, host, role())) {
      return this; // its call ends with the controller's answer or the state read
    }
    if (call instanceof GuestCall.Attached a) {
      if (host.guest.attached(a.underKernel())) {
        host.heartbeats.kernelStarted();
        host.answerDeadline.kernelStarted();
      }
    } else if (call instanceof GuestCall.Wake w) {
      if (host.heartbeats.modelHeartbeats.isBeat(w.token())) {
        next = onHeartbeatWake(w.at());
      } else if (w.token() == ModelHeartbeats.DEADLINE) {
        next = onHeartbeatDeadline(w.at());
      } else if (w.token() == PeerAnswerDeadline.TOKEN) {
        next = answerDeadline(w.at());
      }
    } else if (call instanceof GuestCall.FromPeer p && p.payload() instanceof Heartbeat beat) {
      next = onHeartbeatArrived(beat, p.at());
    } else if (call instanceof GuestCall.FromPeer p && p.payload() instanceof ClientRequest r) {
      host.channelRequest(r, p.at(), call, role()); // its call ends with its answer
      return this;
    }
    if (next instanceof RoleBehavior r && r.keepsCall(call)) {
      return next; // the role that began in this call answers it
    }
    host.guest.answer(call);
    return next;
  }

  private Behavior<Command> onFabricDatabaseAnswered(ControlPlaneHost.FabricDatabaseAnswered msg) {
    host.fabricDatabase.answered(msg.result());
    return this;
  }

  private Behavior<Command> onFabricStateRead(ControlPlaneHost.FabricStateRead msg) {
    host.fabricDatabase.stateRead(msg.state());
    return this;
  }

  /**
   * Whether this role, begun in {@code call}, answers it itself once what it sends has been taken
   * in (the take-over's fencing); false: answered at once.
   */
  boolean keepsCall(GuestCall call) {
    return false;
  }

  private Behavior<Command> onAnswerDeadlineTimer(AnswerDeadline msg) {
    return answerDeadline(msg.at());
  }

  /** A peer-answer deadline's wake or timer at model time {@code at}: the role's, unless stale. */
  private Behavior<Command> answerDeadline(long at) {
    if (!host.answerDeadline.reached(at)) {
      return this;
    }
    host.now = Math.max(host.now, at);
    return onNoAnswer(at);
  }

  /** The other host did not answer by model time {@code at}: only a role that waits for it armed the deadline. */
  Behavior<Command> onNoAnswer(long at) {
    return this;
  }

  /** Only a master beats: anyone else lets the chain of wakes end. */
  Behavior<Command> onHeartbeatWake(long at) {
    return this;
  }

  /** Only a backup watches a deadline. */
  Behavior<Command> onHeartbeatDeadline(long at) {
    return this;
  }

  /** A heartbeat on the guest channel, arrived at model time {@code at}: only a backup watches. */
  Behavior<Command> onHeartbeatArrived(Heartbeat msg, long at) {
    return this;
  }

  Behavior<Command> onPeerGone(PeerGone msg) {
    return this;
  }

  Behavior<Command> onPeerCut(PeerCut msg) {
    host.cut = msg.cut();
    host.cutAt = msg.cut() ? msg.at() : -1;
    if (msg.at() >= 0) {
      host.now = Math.max(host.now, msg.at());
    }
    getContext().getLog().info("Host [{}] {}: link to the peer {}", host.name, role(), msg.cut() ? "cut" : "mended");
    return this;
  }

  /** The replica answered one write: each operation in it is answered, and what waited goes next. */
  private Behavior<Command> onReplicaAnswered(ReplicaAnswered msg) {
    if (msg.replica().equals(host.replica)) {
      host.feedReplica(host.replicaFeed.answered());
    }
    for (Replicate request : msg.batch().requests()) {
      if (msg.failure() == null && msg.ack().accepted()) {
        host.loans.replicated(request); // in this host's journal now: its loans are followed for a take-over
      }
      if (msg.failure() != null) {
        request.replyTo().tell(new Replicated(false, host.lastSeqNr, host.now, "replica: " + msg.failure()));
      } else if (role() != Role.BACKUP) {
        // Persisted, perhaps, but the take-over began: the master must not count on it.
        request.replyTo().tell(new Replicated(false, msg.ack().lastSeqNr(), host.now,
            host.name + " is " + role() + ", not the backup"));
      } else {
        if (msg.ack().accepted()) {
          host.lastSeqNr = msg.ack().lastSeqNr();
          host.noteTemplate(request.firstSeqNr(), request.events());
        }
        request.replyTo().tell(new Replicated(msg.ack().accepted(), msg.ack().lastSeqNr(), host.now,
            msg.ack().detail()));
      }
    }
    return this;
  }

  /** Only a master, or one handing over, has something to be fenced from. */
  Behavior<Command> onFenced(Fenced msg) {
    return this;
  }

  /** The step-down's event persisted, or not: only the fenced role that asked waits for it. */
  Behavior<Command> onStepDownWritten(StepDownWritten msg) {
    getContext().getLog().info("Host [{}] {}: the step-down's journal write answered {}", host.name, role(),
        msg.result() != null ? msg.result().detail() : msg.failure());
    return this;
  }

  // ---- rejoin (RejoiningRole, AdmittingBackupRole)

  /** A journal read goes to the role that asked for it, if the host still plays it. */
  private Behavior<Command> historyRead(HistoryRead msg) {
    if (msg.asker() != this) {
      getContext().getLog().info("Host [{}]: a journal read for a role it left is dropped", host.name);
      return this;
    }
    return onHistoryRead(msg.history(), msg.failure());
  }

  /** The journal this role asked to read back ({@code history} null when it failed with {@code failure}). */
  Behavior<Command> onHistoryRead(io.rackfabric.persistence.controller.JournalHistory history, Throwable failure) {
    return this;
  }

  // ---- fencing, the backup's take-over

  Behavior<Command> onTableRead(TableRead msg) {
    return this;
  }

  Behavior<Command> onPortsMoved(PortsMoved msg) {
    return this;
  }
}
