package io.rackfabric.host.controlplane;

import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.ActorContext;
import io.rackfabric.host.controlplane.ControlPlaneHost.Command;
import io.rackfabric.host.controlplane.ControlPlaneHost.Fenced;
import io.rackfabric.host.controlplane.RejoinProtocol.JoinAnswered;
import io.rackfabric.host.controlplane.RejoinProtocol.JoinAsBackup;
import io.rackfabric.host.controlplane.RejoinProtocol.JoinRefused;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import io.rackfabric.host.controlplane.RejoinProtocol.StateTransfer;
import io.rackfabric.persistence.controller.Controller.CurrentState;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.JournalHistory;

/**
 * A master admitting a host that asks to rejoin as its backup ({@link RejoiningRole} on the other
 * side). It quiesces as for a switchover (new requests wait) until nothing is in flight, so that
 * its controller's state and its journal stand at one sequence number; it reads its journal back
 * and lets {@link RejoinCheck} decide. A refused host is told why and where the journals first
 * may differ. An admitted one gets the events it lacks in chunks ({@link TransferChunks}), each sent
 * once it persisted the one before, and the digest of the master's state; requests keep waiting
 * meanwhile. From the transfer on every operation is replicated to it ({@link BackupLink}), and
 * once it answers that it holds the state the heartbeats start and the master serves again (the
 * requests that waited go first to the new backup, in order). A host that fails any chunk or does
 * not answer one is dropped and told: the master serves on without a backup.
 */
final class AdmittingBackupRole extends RoleBehavior {

  private final JoinAsBackup join;
  private boolean started;
  private CurrentState state;
  private TransferChunks chunks;
  private long stateDigest;
  /** The journal read back, while a refused join's first difference is narrowed down. */
  private JournalHistory history;
  /** The range the first difference lies in, asked of the joiner (null: not narrowing). */
  private RejoinCheck.Narrow narrowing;
  private int narrowRounds;

  private AdmittingBackupRole(ActorContext<Command> context, HostCore host, JoinAsBackup join) {
    super(context, host);
    this.join = join;
  }

  static Behavior<Command> start(ActorContext<Command> context, HostCore host, JoinAsBackup join) {
    host.arrived(join.sentAt());
    AdmittingBackupRole role = new AdmittingBackupRole(context, host, join);
    context.getLog().info("Host [{}]: {} asks to rejoin as backup at its lastSeqNr={}", host.name, join.host(),
        join.lastSeqNr());
    host.admission.close();
    return role.whenQuiet();
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

  /** No answer here is NOT_REPLICATED: a master admits a backup only while it has none. */
  @Override
  Behavior<Command> afterAnswer(OperationResult result) {
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
  Behavior<Command> onHistoryRead(JournalHistory history, Throwable failure) {
    if (failure != null) {
      return refuse("the master could not read its journal: " + failure, -1);
    }
    if (history.lastSeqNr() != state.lastSeqNr()) {
      return refuse("the master's journal ends at seqNr " + history.lastSeqNr() + ", its controller at "
          + state.lastSeqNr(), -1);
    }
    this.history = history;
    RejoinCheck.Verdict verdict = RejoinCheck.decide(join, history);
    if (!(verdict instanceof RejoinCheck.Admit admit)) {
      return refuseOrNarrow(verdict);
    }
    // Quiet: no operation is decided yet that the new backup would miss, and admission stays closed
    // until the last chunk is answered, so the link replicates nothing before the transfer's end.
    host.backupLink.link(host.link(join.from()));
    host.peer = join.from();
    host.peerGuest = join.guest();
    chunks = new TransferChunks(admit.fromSeqNr(), admit.events(), host.settings.rejoinChunkEvents());
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

  /** The next chunk, once the joiner persisted the one before (one outstanding at a time). */
  private Behavior<Command> sendChunk() {
    TransferChunks.Chunk chunk = chunks.next();
    getContext().ask(RejoinProtocol.TransferAnswer.class, join.from(), RejoiningRole.READ_TIMEOUT,
        to -> new StateTransfer(chunk.fromSeqNr(), chunk.events(), chunks.lastSeqNr(), stateDigest, host.now,
            getContext().getSelf(), host.guest.address(), to),
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
    if (!chunks.joined()) {
      return sendChunk();
    }
    host.heartbeats.startHeartbeats();
    getContext().getLog().info("Host [{}]: {} is its backup again at lastSeqNr={} ({} events transferred, chunks: {})",
        host.name, join.host(), msg.answer().lastSeqNr(), chunks.eventsSent(), chunks.chunks());
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
