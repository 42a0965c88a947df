package io.rackfabric.host.controlplane;

import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.ActorContext;
import io.rackfabric.host.controlplane.ControlPlaneHost.Command;
import io.rackfabric.host.controlplane.RejoinProtocol.HistoryRead;
import io.rackfabric.host.controlplane.RejoinProtocol.ChunkPersisted;
import io.rackfabric.host.controlplane.RejoinProtocol.JoinRefused;
import io.rackfabric.host.controlplane.RejoinProtocol.Joined;
import io.rackfabric.host.controlplane.ControlPlaneHost.Rejoin;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import io.rackfabric.host.controlplane.ControlPlaneHost.RoleChanged;
import io.rackfabric.host.controlplane.RejoinProtocol.StateTransfer;
import io.rackfabric.host.controlplane.RejoinProtocol.TransferWritten;
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
 * (a bounded sample of it, ending with its last digest: {@link RejoinCheck#joinRequest}) to the
 * master; the master refuses a journal that is not a prefix of its own, naming the first event that
 * differs (it may first ask for this host's digests within a range: {@link
 * RejoinProtocol.ShowDigests}), or sends the events it lacks in chunks, one at a time: the bulk
 * while it serves, then the tail with its state's digest. At the first chunk the host stops its old
 * controller and starts a replica under its next tenure's persistence id ({@link
 * RejoinCheck#nextTenure}) with its own events; it writes each chunk there and acknowledges it
 * before the next comes; after the last it checks the result against the master's state's digest
 * and becomes its backup.
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
  /** The chunk being written (null while none is: before the first, or awaiting the next). */
  private StateTransfer chunk;
  /** The new journal's last sequence number once a chunk is written; -1 before the first. */
  private long writtenUpTo = -1;
  private long transferred;
  /** The transfer's chunks and their bytes on the link, and the model time its first byte went on it. */
  private int chunks;
  private long bytes;
  private long transferFrom;
  /** The current chunk's journal writes, in order, how many were sent, and the next one's first seqNr. */
  private List<List<ControllerEvent>> toWrite = List.of();
  private int writes;
  private long writeFrom = 1;

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
    host.peer.tell(RejoinCheck.joinRequest(host.name, own, host.now, getContext().getSelf(), host.guest.address()));
    return this;
  }

  @Override
  Behavior<Command> onJoinRefused(JoinRefused msg) {
    host.arrived(msg.sentAt());
    host.answerDeadline.disarm();
    return fail("refused by the master: " + msg.reason() + " (first differing seqNr=" + msg.firstDifferingSeqNr() + ")");
  }

  /**
   * The master narrows down where this host's journal first differs from its own: it answers with
   * its digests in the range asked ({@link RejoinCheck#sample}) and waits for the next word, as for
   * the request.
   */
  @Override
  Behavior<Command> onShowDigests(RejoinProtocol.ShowDigests msg) {
    if (own == null || writtenUpTo >= 0) {
      return this;
    }
    host.arrived(msg.sentAt());
    List<Long> seqNrs = msg.agreed() < 0 || msg.differs() <= msg.agreed() || msg.differs() - 1 > own.lastSeqNr()
        ? List.of() // outside its journal: the master refuses an answer that is not what it asked
        : RejoinCheck.sample(msg.agreed(), msg.differs() - msg.agreed() - 1);
    host.answerDeadline.arm(host.now);
    msg.master().tell(new RejoinProtocol.Digests(host.name, seqNrs, RejoinCheck.digestsAt(own, seqNrs), host.now));
    return this;
  }

  /** A chunk of the transfer: checked, then written to the new tenure; the first begins it. */
  @Override
  Behavior<Command> onStateTransfer(StateTransfer msg) {
    if (own == null || chunk != null) {
      return super.onStateTransfer(msg); // not asked for yet, or one at a time
    }
    host.arrived(msg.sentAt());
    host.answerDeadline.disarm();
    boolean first = writtenUpTo < 0;
    if (first) {
      transferFrom = msg.sentAt() - host.settings.serializationNs(msg.bytes());
    }
    Optional<String> problem = RejoinCheck.checkNumbers(first ? own.lastSeqNr() : writtenUpTo, msg);
    if (problem.isPresent()) {
      msg.replyTo().tell(new Joined(false, first ? own.lastSeqNr() : writtenUpTo, host.now, problem.get()));
      return fail("state transfer refused: " + problem.get());
    }
    chunk = msg;
    toWrite = new ArrayList<>();
    writes = 0;
    if (!first) {
      toWrite.addAll(RejoinCheck.writes(msg.events(), host.settings.rejoinWriteEvents()));
      return writeNext();
    }
    if (host.controller == null) {
      return beginTenure();
    }
    host.stopChild(host.controller, this::beginTenure); // the old journal is written no more
    return this;
  }

  /** The new tenure's journal: this host's own verified events, then the first chunk. */
  private Behavior<Command> beginTenure() {
    host.persistenceId = RejoinCheck.nextTenure(host.persistenceId);
    host.startReplica();
    host.loans.journalRewritten();
    host.noteTemplate(1, own.events());
    toWrite.addAll(RejoinCheck.writes(own.events(), host.settings.rejoinWriteEvents()));
    toWrite.addAll(RejoinCheck.writes(chunk.events(), host.settings.rejoinWriteEvents()));
    return writeNext();
  }

  /** One write of the chunk's that are left, numbered after what is written; once all are, the chunk is done. */
  private Behavior<Command> writeNext() {
    if (writes == toWrite.size()) {
      return chunkWritten();
    }
    List<ControllerEvent> next = toWrite.get(writes++);
    host.loans.rewritten(next);
    long from = writeFrom;
    writeFrom += next.size();
    getContext().ask(ReplicationAck.class, host.replica, READ_TIMEOUT,
        to -> new ControllerReplica.ReplicateEvents(from, next, to), TransferWritten::new);
    return this;
  }

  @Override
  Behavior<Command> onTransferWritten(TransferWritten msg) {
    if (chunk == null) {
      return super.onTransferWritten(msg);
    }
    if (msg.failure() != null || !msg.ack().accepted()) {
      return refuseTransfer("the new journal " + host.persistenceId.id() + " did not write the transfer: "
          + (msg.failure() != null ? msg.failure() : msg.ack().detail()));
    }
    return writeNext();
  }

  /** A chunk persisted: acknowledged for the next, or, the last, drained and checked. */
  private Behavior<Command> chunkWritten() {
    host.noteTemplate(chunk.fromSeqNr(), chunk.events());
    writtenUpTo = writeFrom - 1;
    transferred += chunk.events().size();
    chunks++;
    bytes += chunk.bytes();
    if (chunk.last()) {
      host.drainReplica(this::written);
      return this;
    }
    StateTransfer done = chunk;
    chunk = null;
    long dueAt = host.answerDeadline.arm(host.now);
    getContext().getLog().debug("Host [{}] persisted the transfer to seqNr {}, waits for the next chunk until {} ns",
        host.name, writtenUpTo, dueAt);
    done.replyTo().tell(new ChunkPersisted(writtenUpTo, host.now));
    return this;
  }

  private Behavior<Command> written(CurrentState state) {
    Optional<String> problem = RejoinCheck.checkWritten(chunk, state);
    if (problem.isPresent()) {
      return refuseTransfer(problem.get());
    }
    host.lastSeqNr = state.lastSeqNr();
    host.fencedBecause = "";
    host.peer = chunk.master();
    host.peerGuest = chunk.guest();
    host.heartbeats.resetWatch();
    host.heartbeats.watchPeer();
    // The last chunk is the master's latest sign of life; to a host whose node was started again at a
    // model time, no earlier than it could reach it then.
    long firstSign = request.notBefore() == Long.MIN_VALUE ? chunk.sentAt()
        : Math.max(chunk.sentAt(), request.notBefore() - host.settings.linkLatencyNs());
    host.heartbeats.watchHeartbeat(firstSign);
    String detail = "rejoined as backup at lastSeqNr=" + host.lastSeqNr + " (" + own.lastSeqNr() + " own events, "
        + transferred + " transferred in " + chunks + (chunks == 1 ? " chunk, " : " chunks, ") + bytes + " bytes, "
        + (host.now - transferFrom) + " ns of model time), journal " + host.persistenceId.id();
    getContext().getLog().info("Host [{}] {}", host.name, detail);
    chunk.replyTo().tell(new Joined(true, host.lastSeqNr, host.now, detail));
    request.replyTo().tell(new RoleChanged(host.name, Role.BACKUP, true, host.lastSeqNr, detail));
    return new BackupRole(getContext(), host);
  }

  /** The transfer did not verify: the master is told, this host stays fenced. */
  private Behavior<Command> refuseTransfer(String problem) {
    chunk.replyTo().tell(new Joined(false, host.lastSeqNr, host.now, problem));
    return fail("state transfer failed: " + problem);
  }

  /**
   * The master did not answer the request, or send the next chunk, by model time {@code at}
   * (peer-answer-timeout): still FENCED.
   */
  @Override
  Behavior<Command> onNoAnswer(long at) {
    if (own == null || chunk != null) {
      return this;
    }
    return fail(writtenUpTo < 0 ? "no answer from the master by " + at + " ns (peer-answer-timeout="
        + host.settings.peerAnswerTimeoutNs() + "ns after the request)"
        : "no chunk after seqNr " + writtenUpTo + " from the master by " + at + " ns (peer-answer-timeout="
            + host.settings.peerAnswerTimeoutNs() + "ns after the last acknowledgement)");
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
