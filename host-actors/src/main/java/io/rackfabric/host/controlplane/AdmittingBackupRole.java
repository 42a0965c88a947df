package io.rackfabric.host.controlplane;

import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Adapter;
import akka.serialization.Serialization;
import akka.serialization.SerializationExtension;
import io.rackfabric.host.controlplane.ControlPlaneHost.Command;
import io.rackfabric.host.controlplane.ControlPlaneHost.Fenced;
import io.rackfabric.host.controlplane.RejoinProtocol.JoinAnswered;
import io.rackfabric.host.controlplane.RejoinProtocol.JoinAsBackup;
import io.rackfabric.host.controlplane.RejoinProtocol.JoinRefused;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import io.rackfabric.host.controlplane.RejoinProtocol.StateTransfer;
import io.rackfabric.persistence.controller.Controller.CurrentState;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.JournalHistory;

/**
 * A master admitting a host that asks to rejoin as its backup ({@link RejoiningRole} on the other
 * side), as a snapshot install followed by log catch-up. It reads its journal back, serving on,
 * and lets {@link RejoinCheck} decide. A refused host is told why and the first event that
 * differs (narrowed down with the joiner's digests while the sample locates it only to a range).
 * An admitted one first gets the bulk: the events it lacks up to where the journal read ended, in
 * chunks ({@link TransferChunks}), each sent once it persisted the one before, while requests are
 * served as usual (persisted by the master alone: the joiner is not in the pair yet). Then the
 * master quiesces as for a switchover (new requests wait) until nothing is in flight, so that its
 * controller's state and its journal stand at one sequence number, reads the tail (the events
 * appended since) and sends it, with the digest of its state, under that short quiesce. From the
 * tail on every operation is replicated to the joiner ({@link BackupLink}), and once it answers
 * that it holds the state the heartbeats start and the master serves again (the requests that
 * waited go first to the new backup, in order). A host that fails any chunk or does not answer
 * one is dropped and told: the master serves on without a backup.
 */
final class AdmittingBackupRole extends RoleBehavior {

  private final JoinAsBackup join;
  /** Quiescing for the tail: its state and journal are read once nothing is in flight. */
  private boolean quiescing;
  private boolean started;
  private CurrentState state;
  private TransferChunks chunks;
  private long stateDigest;
  /** The journal read back, while a refused join's first difference is narrowed down. */
  private JournalHistory history;
  /** The range the first difference lies in, asked of the joiner (null: not narrowing). */
  private RejoinCheck.Narrow narrowing;
  private int narrowRounds;
  /** The bulk's events and chunks, once it is persisted (its chunks sent while serving). */
  private int bulkEvents;
  private int bulkChunks;

  /** Sizes each chunk's events as they cross JVMs (Kryo): the bytes the chunk puts on the link. */
  private final Serialization serialization;

  private AdmittingBackupRole(ActorContext<Command> context, HostCore host, JoinAsBackup join) {
    super(context, host);
    this.join = join;
    this.serialization = SerializationExtension.get(Adapter.toClassic(context.getSystem()));
  }

  static Behavior<Command> start(ActorContext<Command> context, HostCore host, JoinAsBackup join) {
    host.arrived(join.sentAt());
    AdmittingBackupRole role = new AdmittingBackupRole(context, host, join);
    context.getLog().info("Host [{}]: {} asks to rejoin as backup at its lastSeqNr={}", host.name, join.host(),
        join.lastSeqNr());
    RejoiningRole.readHistory(context, host, role); // serving on meanwhile
    return role;
  }

  @Override
  Role role() {
    return Role.MASTER;
  }

  /** A backup being admitted is not caught up yet: nothing to hand over to. */
  @Override
  Behavior<Command> onSwitchover(ControlPlaneHost.Switchover msg) {
    return refuseSwitchover(msg, host.name + " is admitting a rejoining backup, not caught up yet: ask again once it"
        + " is the backup");
  }

  /**
   * No answer here is NOT_REPLICATED: a master admits a backup only while it has none, and links it
   * only for the tail, once quiet.
   */
  @Override
  Behavior<Command> afterAnswer(OperationResult result) {
    return quiescing ? whenQuiet() : super.afterAnswer(result);
  }

  /** The bulk is persisted: new requests wait until nothing is in flight, then the tail is read. */
  private Behavior<Command> quiesce() {
    quiescing = true;
    host.admission.close();
    return whenQuiet();
  }

  private Behavior<Command> whenQuiet() {
    if (started || host.admission.inFlight() > 0) {
      return this;
    }
    started = true;
    host.readController(s -> {
      if (s == null) {
        return refuse("the master could not read its controller's state", -1);
      }
      state = s;
      RejoiningRole.readHistory(getContext(), host, this);
      return this;
    });
    return this;
  }

  @Override
  Behavior<Command> onJoinAsBackup(JoinAsBackup msg) {
    host.arrived(msg.sentAt());
    msg.from().tell(new JoinRefused(host.name + " is admitting " + join.host() + " already", -1, host.now));
    return this;
  }

  @Override
  Behavior<Command> onHistoryRead(JournalHistory read, Throwable failure) {
    if (failure != null) {
      return refuse("the master could not read its journal: " + failure, -1);
    }
    if (quiescing) {
      return sendTail(read);
    }
    this.history = read;
    RejoinCheck.Verdict verdict = RejoinCheck.decide(join, read);
    if (!(verdict instanceof RejoinCheck.Admit admit)) {
      return refuseOrNarrow(verdict);
    }
    stateDigest = 0; // the bulk carries none: the tail's last chunk carries the state's
    if (admit.events().isEmpty()) {
      return quiesce();
    }
    chunks = new TransferChunks(admit.fromSeqNr(), admit.events(), host.settings.rejoinChunkEvents(), false);
    return sendChunk();
  }

  /**
   * Quiet, with the journal read again: the events appended since the bulk's end go under the
   * quiesce, replicated from now on (no operation is decided that the new backup would miss, and
   * admission stays closed until the last chunk is answered).
   */
  private Behavior<Command> sendTail(JournalHistory read) {
    if (read.lastSeqNr() != state.lastSeqNr()) {
      return refuse("the master's journal ends at seqNr " + read.lastSeqNr() + ", its controller at "
          + state.lastSeqNr(), -1);
    }
    long from = chunks == null ? join.lastSeqNr() + 1 : chunks.lastSeqNr() + 1;
    bulkEvents = chunks == null ? 0 : chunks.eventsSent();
    bulkChunks = chunks == null ? 0 : chunks.chunks();
    host.backupLink.link(host.link(join.from()));
    host.peer = join.from();
    host.peerGuest = join.guest();
    chunks = new TransferChunks(from, read.after(from - 1), host.settings.rejoinChunkEvents());
    stateDigest = JournalHistory.digestOf(state.state());
    return sendChunk();
  }

  /**
   * A refusal, or a range the first differing event lies in: the joiner is asked for its digests
   * there ({@link RejoinProtocol.ShowDigests}), within {@code peer-answer-timeout} of model time.
   */
  private Behavior<Command> refuseOrNarrow(RejoinCheck.Verdict verdict) {
    if (verdict instanceof RejoinCheck.Refuse r) {
      return refuse(r.reason() + (narrowRounds > 0 ? " (narrowed in " + narrowRounds + " rounds)" : ""),
          r.firstDifferingSeqNr());
    }
    narrowing = (RejoinCheck.Narrow) verdict;
    narrowRounds++;
    getContext().getLog().info("Host [{}]: {}'s journal differs first in seqNr {}..{}: asking for {} of its digests",
        host.name, join.host(), narrowing.agreed() + 1, narrowing.differs(), narrowing.wanted().size());
    host.answerDeadline.arm(host.now);
    join.from().tell(new RejoinProtocol.ShowDigests(narrowing.agreed(), narrowing.differs(), host.now,
        getContext().getSelf()));
    return this;
  }

  @Override
  Behavior<Command> onDigests(RejoinProtocol.Digests msg) {
    if (narrowing == null || !msg.host().equals(join.host())) {
      return this;
    }
    host.arrived(msg.sentAt());
    host.answerDeadline.disarm();
    RejoinCheck.Narrow n = narrowing;
    narrowing = null;
    return refuseOrNarrow(RejoinCheck.narrow(join.host(), n, msg.seqNrs(), msg.digests(), history));
  }

  /** The joiner did not answer a narrowing by model time {@code at}: refused with the range known. */
  @Override
  Behavior<Command> onNoAnswer(long at) {
    if (narrowing == null) {
      return this;
    }
    RejoinCheck.Narrow n = narrowing;
    narrowing = null;
    return refuse(join.host() + "'s journal is not a prefix of the master's history: the first differing event lies"
        + " in seqNr " + (n.agreed() + 1) + ".." + n.differs() + " (events up to " + n.agreed() + " agree); no digests"
        + " from it by " + at + " ns (peer-answer-timeout=" + host.settings.peerAnswerTimeoutNs() + "ns)",
        n.agreed() + 1);
  }

  /**
   * The next chunk, once the joiner persisted the one before (one outstanding at a time): on the
   * link from now for its bytes' time at the link's bandwidth, then its latency (on arrival).
   */
  private Behavior<Command> sendChunk() {
    TransferChunks.Chunk chunk = chunks.next();
    long bytes = 0;
    for (ControllerEvent e : chunk.events()) {
      bytes += serialization.serialize(e).get().length;
    }
    long onLink = host.now + host.settings.serializationNs(bytes);
    long size = bytes;
    getContext().ask(RejoinProtocol.TransferAnswer.class, join.from(), RejoiningRole.READ_TIMEOUT,
        to -> new StateTransfer(chunk.fromSeqNr(), chunk.events(), chunks.lastSeqNr(), stateDigest, onLink,
            getContext().getSelf(), host.guest.address(), to, !chunks.endsTransfer(), size),
        JoinAnswered::new);
    return this;
  }

  @Override
  Behavior<Command> onJoinAnswered(JoinAnswered msg) {
    if (chunks == null) {
      return super.onJoinAnswered(msg);
    }
    if (msg.failure() != null) {
      chunks.fail("no answer: " + msg.failure());
    } else {
      host.arrived(msg.answer().sentAt());
      chunks.answered(msg.answer());
    }
    if (chunks.failure() != null) {
      host.backupLink.unlink();
      getContext().getLog().warn("Host [{}]: {} did not rejoin at chunk {} ({}); serving without a backup", host.name,
          join.host(), chunks.chunks(), chunks.failure());
      // Its answer may still come and make it a backup no heartbeat reaches: told, it stands down.
      join.from().tell(new JoinRefused("admission ended without its answer: " + chunks.failure(), -1, host.now));
      return serve();
    }
    if (!chunks.done()) {
      return sendChunk();
    }
    if (!chunks.endsTransfer()) {
      return quiesce();
    }
    host.heartbeats.startHeartbeats();
    getContext().getLog().info("Host [{}]: {} is its backup again at lastSeqNr={} ({} events in {} chunks while"
        + " serving, then {} in {} under the quiesce)", host.name, join.host(), msg.answer().lastSeqNr(), bulkEvents,
        bulkChunks, chunks.eventsSent(), chunks.chunks());
    return serve();
  }

  @Override
  Behavior<Command> onFenced(Fenced msg) {
    host.arrived(msg.at());
    return FencedRole.fence(getContext(), host, "fenced by " + msg.by() + " at " + msg.at() + " ns", null);
  }

  private Behavior<Command> refuse(String reason, long firstDifferingSeqNr) {
    getContext().getLog().warn("Host [{}] refuses {} as backup: {}", host.name, join.host(), reason);
    join.from().tell(new JoinRefused(reason, firstDifferingSeqNr, host.now));
    return serve();
  }

  private Behavior<Command> serve() {
    MasterRole master = new MasterRole(getContext(), host);
    host.serve();
    return master;
  }
}
