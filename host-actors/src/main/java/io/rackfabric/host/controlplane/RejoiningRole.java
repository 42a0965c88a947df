package io.rackfabric.host.controlplane;

import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.ActorContext;
import io.rackfabric.host.controlplane.ControlPlaneHost.Command;
import io.rackfabric.host.controlplane.ControlPlaneHost.HistoryRead;
import io.rackfabric.host.controlplane.ControlPlaneHost.JoinAsBackup;
import io.rackfabric.host.controlplane.ControlPlaneHost.JoinRefused;
import io.rackfabric.host.controlplane.ControlPlaneHost.Joined;
import io.rackfabric.host.controlplane.ControlPlaneHost.Rejoin;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import io.rackfabric.host.controlplane.ControlPlaneHost.RoleChanged;
import io.rackfabric.host.controlplane.ControlPlaneHost.StateTransfer;
import io.rackfabric.host.controlplane.ControlPlaneHost.TransferWritten;
import io.rackfabric.persistence.controller.Controller.CurrentState;
import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.HistoryReader;
import io.rackfabric.persistence.controller.JournalHistory;
import io.rackfabric.persistence.replication.ControllerReplica;
import io.rackfabric.persistence.replication.ControllerReplica.ReplicationAck;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A fenced master rejoining as the backup of the host that fenced it (Multi-peer "Redundancy": the
 * repaired unit comes back as the standby). It reads its own journal and offers its digest chain
 * to the master; the master refuses a journal that is not a prefix of its own, or sends the
 * events it lacks and its state. The host then stops its old controller, starts a replica under
 * its next tenure's persistence id ({@link RejoinCheck#nextTenure}), writes its own events and the
 * transferred ones there, checks the result against the master's state and becomes its backup.
 * Its old journal is never written: a refusal or a failed check leaves it, and the master's, as
 * they were; a check that fails after the new tenure was begun stops its replica and leaves the
 * host on that tenure's id, from which a later rejoin starts. A master that does not answer the
 * request within {@code peer-answer-timeout} of model time ({@link PeerAnswerDeadline}) leaves it
 * FENCED too; a later answer is refused. It serves nothing meanwhile (FENCED).
 */
final class RejoiningRole extends RoleBehavior {

  /** Reading a journal of 100,000 events back takes seconds; a stuck journal is an error. */
  static final Duration READ_TIMEOUT = Duration.ofMinutes(2);

  private final Rejoin request;
  private final String fencedBecause;
  private JournalHistory own;
  private StateTransfer transfer;
  /** The new journal's writes, in order, and how many were sent. */
  private List<List<ControllerEvent>> toWrite = List.of();
  private int writes;

  private RejoiningRole(ActorContext<Command> context, HostCore host, Rejoin request) {
    super(context, host);
    this.request = request;
    this.fencedBecause = host.fencedBecause;
  }

  static Behavior<Command> start(ActorContext<Command> context, HostCore host, Rejoin request, RoleBehavior fenced) {
    if (host.peer == null) {
      request.replyTo().tell(new RoleChanged(host.name, Role.FENCED, false, host.lastSeqNr,
          host.name + " knows no master to rejoin"));
      return fenced;
    }
    if (request.notBefore() != Long.MIN_VALUE) {
      host.now = Math.max(host.now, request.notBefore()); // its node restarted then: its clock starts there
    }
    RejoiningRole role = new RejoiningRole(context, host, request);
    context.getLog().info("Host [{}] asks to rejoin as backup", host.name);
    readHistory(context, host, role);
    return role;
  }

  /** Reads the host's journal whole; the answer comes back as a {@link HistoryRead} for {@code asker}. */
  static void readHistory(ActorContext<Command> context, HostCore host, RoleBehavior asker) {
    var reader = context.spawnAnonymous(HistoryReader.create(host.persistenceId));
    context.ask(JournalHistory.class, reader, READ_TIMEOUT, HistoryReader.Read::new,
        (history, failure) -> new HistoryRead(history, failure, asker));
  }

  @Override
  Role role() {
    return Role.FENCED;
  }

  @Override
  Behavior<Command> onRejoin(Rejoin msg) {
    msg.replyTo().tell(new RoleChanged(host.name, Role.FENCED, false, host.lastSeqNr,
        host.name + " is rejoining already"));
    return this;
  }

  @Override
  Behavior<Command> onHistoryRead(JournalHistory history, Throwable failure) {
    if (failure != null) {
      return fail("cannot read its own journal: " + failure);
    }
    own = history;
    if (own.stepDown() != null) {
      getContext().getLog().info("Host [{}]: its journal {} ends with its step-down ({}), not offered: it offers the {}"
          + " events before it", host.name, host.persistenceId.id(), own.stepDown(), own.lastSeqNr());
    }
    long dueAt = host.answerDeadline.arm(host.now);
    getContext().getLog().debug("Host [{}] waits for the master's answer until {} ns", host.name, dueAt);
    host.peer.tell(new JoinAsBackup(host.name, own.lastSeqNr(), own.chain(), host.now, getContext().getSelf(),
        host.guest.address()));
    return this;
  }

  @Override
  Behavior<Command> onJoinRefused(JoinRefused msg) {
    host.arrived(msg.sentAt());
    host.answerDeadline.disarm();
    return fail("refused by the master: " + msg.reason() + " (first differing seqNr=" + msg.firstDifferingSeqNr() + ")");
  }

  @Override
  Behavior<Command> onStateTransfer(StateTransfer msg) {
    host.arrived(msg.sentAt());
    if (own == null || transfer != null) {
      return super.onStateTransfer(msg);
    }
    host.answerDeadline.disarm();
    Optional<String> problem = RejoinCheck.checkNumbers(own.lastSeqNr(), msg);
    if (problem.isPresent()) {
      msg.replyTo().tell(new Joined(false, own.lastSeqNr(), host.now, problem.get()));
      return fail("state transfer refused: " + problem.get());
    }
    transfer = msg;
    if (host.controller == null) {
      return writeNewTenure();
    }
    host.stopChild(host.controller, this::writeNewTenure); // the old journal is written no more
    return this;
  }

  /** The new tenure's journal: this host's own verified events, then the master's since. */
  private Behavior<Command> writeNewTenure() {
    host.persistenceId = RejoinCheck.nextTenure(host.persistenceId);
    host.startReplica();
    List<ControllerEvent> all = new ArrayList<>(own.events());
    all.addAll(transfer.events());
    toWrite = RejoinCheck.writes(all, host.settings.rejoinWriteEvents());
    return writeNext();
  }

  /** One write of what is left to write, numbered after what is written; drained and checked once all is. */
  private Behavior<Command> writeNext() {
    if (writes == toWrite.size()) {
      host.drainReplica(this::written);
      return this;
    }
    List<ControllerEvent> next = toWrite.get(writes);
    long first = 1;
    for (int i = 0; i < writes; i++) {
      first += toWrite.get(i).size();
    }
    long from = first;
    writes++;
    getContext().ask(ReplicationAck.class, host.replica, READ_TIMEOUT,
        to -> new ControllerReplica.ReplicateEvents(from, next, to), TransferWritten::new);
    return this;
  }

  @Override
  Behavior<Command> onTransferWritten(TransferWritten msg) {
    if (transfer == null) {
      return super.onTransferWritten(msg);
    }
    if (msg.failure() != null || !msg.ack().accepted()) {
      return refuseTransfer("the new journal " + host.persistenceId.id() + " did not write the transfer: "
          + (msg.failure() != null ? msg.failure() : msg.ack().detail()));
    }
    return writeNext();
  }

  private Behavior<Command> written(CurrentState state) {
    Optional<String> problem = RejoinCheck.checkWritten(transfer, state);
    if (problem.isPresent()) {
      return refuseTransfer(problem.get());
    }
    host.lastSeqNr = state.lastSeqNr();
    host.noteTemplate(1, own.events());
    host.noteTemplate(transfer.fromSeqNr(), transfer.events());
    host.fencedBecause = "";
    host.peer = transfer.master();
    host.peerGuest = transfer.guest();
    host.heartbeats.resetWatch();
    host.heartbeats.watchPeer();
    // The transfer is the master's first sign of life; to a host whose node was started again at a
    // model time, no earlier than it could reach it then.
    long firstSign = request.notBefore() == Long.MIN_VALUE ? transfer.sentAt()
        : Math.max(transfer.sentAt(), request.notBefore() - host.settings.linkLatencyNs());
    host.heartbeats.watchHeartbeat(firstSign);
    String detail = "rejoined as backup at lastSeqNr=" + host.lastSeqNr + " (" + own.lastSeqNr() + " own events, "
        + transfer.events().size() + " transferred), journal " + host.persistenceId.id();
    getContext().getLog().info("Host [{}] {}", host.name, detail);
    transfer.replyTo().tell(new Joined(true, host.lastSeqNr, host.now, detail));
    request.replyTo().tell(new RoleChanged(host.name, Role.BACKUP, true, host.lastSeqNr, detail));
    return new BackupRole(getContext(), host);
  }

  /** The transfer did not verify: the master is told, this host stays fenced. */
  private Behavior<Command> refuseTransfer(String problem) {
    transfer.replyTo().tell(new Joined(false, host.lastSeqNr, host.now, problem));
    return fail("state transfer failed: " + problem);
  }

  /** The master did not answer the request by model time {@code at} (peer-answer-timeout): still FENCED. */
  @Override
  Behavior<Command> onNoAnswer(long at) {
    if (own == null || transfer != null) {
      return this;
    }
    return fail("no answer from the master by " + at + " ns (peer-answer-timeout="
        + host.settings.peerAnswerTimeoutNs() + "ns after the request)");
  }

  private Behavior<Command> fail(String reason) {
    host.answerDeadline.disarm();
    getContext().getLog().warn("Host [{}] does not rejoin: {}", host.name, reason);
    request.replyTo().tell(new RoleChanged(host.name, Role.FENCED, false, host.lastSeqNr, reason));
    Behavior<Command> fenced = FencedRole.standDown(getContext(), host, fencedBecause);
    host.stopReplica(); // a new tenure's, begun before the check failed: a later rejoin starts another
    return fenced;
  }
}
