package io.rackfabric.host.controlplane;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.endpoint.GuestAddress;
import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.JournalHistory;
import io.rackfabric.persistence.replication.ControllerReplica.ReplicationAck;
import java.util.List;

/**
 * The messages between a fenced host rejoining as backup ({@link RejoiningRole}) and the master
 * admitting it ({@link AdmittingBackupRole}), after {@link ControlPlaneHost.Rejoin} started it: the
 * join request, the master's narrowing of a refused one's first difference, its refusal, the
 * chunks of the state transfer and the joiner's answers. The decisions are {@link RejoinCheck}'s
 * and {@link TransferChunks}'.
 */
public final class RejoinProtocol {

  /**
   * A fenced host asks the master to be its backup: its journal ends at {@code lastSeqNr}; {@code
   * sampleSeqNrs} are sequence numbers of its chain of digests ({@link
   * io.rackfabric.persistence.controller.JournalHistory}: digest {@code i} covers events 1 to {@code
   * i}) and {@code sampleDigests} the digests there: every one when the journal is short, else a
   * bounded, evenly spaced sample, always ending with the last ({@link RejoinCheck#sampleSeqNrs}).
   * The master admits it only when its last digest is the master's at {@code lastSeqNr}.
   */
  public record JoinAsBackup(String host, long lastSeqNr, List<Long> sampleSeqNrs, List<Long> sampleDigests,
      long sentAt, ActorRef<ControlPlaneHost.Command> from, GuestAddress guest)
      implements ControlPlaneHost.RejoinMessage, WireMessage {

    public JoinAsBackup {
      sampleSeqNrs = List.copyOf(sampleSeqNrs);
      sampleDigests = List.copyOf(sampleDigests);
    }
  }

  /**
   * The master's refusal. {@code firstDifferingSeqNr}: the first event at which the two journals
   * differ (every event before it is the same in both; past the master's last, the one after it),
   * located exactly whatever the journals' length: the join request's sample, then as many rounds of
   * {@link ShowDigests} as it takes. A joiner that did not answer a round in time, or answered other
   * digests than asked, leaves it the first that may differ (the reason names the range). -1: not
   * compared (the host asked is no master, could not read its journal, or the request was malformed).
   */
  public record JoinRefused(String reason, long firstDifferingSeqNr, long sentAt)
      implements ControlPlaneHost.RejoinMessage, WireMessage {}

  /**
   * The master's narrowing of a refused join ({@link RejoinCheck.Narrow}): every event up to {@code
   * agreed} is the same in both journals, the one at {@code differs} is not; the joiner answers
   * with {@link Digests} at the bounded sample of the sequence numbers between ({@link
   * RejoinCheck#sample}), until the master knows the first differing event and refuses naming it.
   */
  public record ShowDigests(long agreed, long differs, long sentAt, ActorRef<ControlPlaneHost.Command> master)
      implements ControlPlaneHost.RejoinMessage, WireMessage {}

  /** A joiner's digests of events 1 to each of {@code seqNrs}, the answer to {@link ShowDigests}. */
  public record Digests(String host, List<Long> seqNrs, List<Long> digests, long sentAt)
      implements ControlPlaneHost.RejoinMessage, WireMessage {

    public Digests {
      seqNrs = List.copyOf(seqNrs);
      digests = List.copyOf(digests);
    }
  }

  /**
   * One chunk of the master's state transfer: the events numbered from {@code fromSeqNr} that the
   * joiner lacks, at most {@code rejoin-chunk-events} of them, one chunk outstanding at a time. The
   * transfer ends at the master's {@code lastSeqNr}; the chunk that reaches it is the last ({@link
   * #last}). {@code stateDigest} is the digest of the master's state there ({@link
   * io.rackfabric.persistence.controller.JournalHistory#digestOf}), for the joiner to check its
   * fold against once the last chunk is written. The joiner answers each chunk but the last with
   * {@link ChunkPersisted} and the last, or any chunk it cannot take, with {@link Joined}.
   *
   * <p>With {@code bulk}, a chunk of the history the master held when it admitted the joiner, sent
   * while it serves: {@code lastSeqNr} is where that history ends ({@code stateDigest} unused, 0),
   * and the chunk that reaches it is answered {@link ChunkPersisted} too; the tail (the events
   * appended meanwhile, sent once the master quiesced) follows, its chunks not bulk, and ends the
   * transfer.
   *
   * <p>{@code bytes}: the events' size on the wire (Kryo), which the chunk takes onto the MMH-BMH
   * link at its bandwidth: {@code sentAt} is when its last byte is on the link.
   */
  public record StateTransfer(long fromSeqNr, List<ControllerEvent> events, long lastSeqNr, long stateDigest,
      long sentAt, ActorRef<ControlPlaneHost.Command> master, GuestAddress guest, ActorRef<TransferAnswer> replyTo,
      boolean bulk, long bytes) implements ControlPlaneHost.RejoinMessage, WireMessage {

    public StateTransfer {
      events = List.copyOf(events);
    }

    /** A chunk of the tail, its bytes not counted. */
    public StateTransfer(long fromSeqNr, List<ControllerEvent> events, long lastSeqNr, long stateDigest, long sentAt,
        ActorRef<ControlPlaneHost.Command> master, GuestAddress guest, ActorRef<TransferAnswer> replyTo) {
      this(fromSeqNr, events, lastSeqNr, stateDigest, sentAt, master, guest, replyTo, false, 0);
    }

    /** The sequence number of this chunk's last event ({@code fromSeqNr - 1} when it is empty). */
    public long endSeqNr() {
      return fromSeqNr + events.size() - 1;
    }

    /** Whether this chunk ends the transfer, at the master's last sequence number (never a bulk chunk). */
    public boolean last() {
      return !bulk && endSeqNr() == lastSeqNr;
    }
  }

  /** A joiner's answer to a chunk of the state transfer. */
  public sealed interface TransferAnswer extends WireMessage permits ChunkPersisted, Joined {
    long lastSeqNr();

    long sentAt();
  }

  /** The joiner persisted a chunk: its new journal ends at {@code lastSeqNr}; the next may come. */
  public record ChunkPersisted(long lastSeqNr, long sentAt) implements TransferAnswer {}

  /**
   * The joiner's last answer to a transfer: persisted and verified ({@code ok}), it is the backup
   * now; not ok, the rejoin ended at that chunk ({@code detail} says why).
   */
  public record Joined(boolean ok, long lastSeqNr, long sentAt, String detail) implements TransferAnswer {}

  // ---- to itself (package-private: the roles send them)

  /** A journal's change log read back for a rejoin (null: failed). */
  record HistoryRead(JournalHistory history, Throwable failure, RoleBehavior asker)
      implements ControlPlaneHost.RejoinMessage, NoSerializationVerificationNeeded {}

  /** The joiner's answer to a chunk of the master's state transfer (null: none in time). */
  record JoinAnswered(TransferAnswer answer, Throwable failure)
      implements ControlPlaneHost.RejoinMessage, NoSerializationVerificationNeeded {}

  /** The rejoined host's new journal wrote the transfer (or not). */
  record TransferWritten(ReplicationAck ack, Throwable failure)
      implements ControlPlaneHost.RejoinMessage, NoSerializationVerificationNeeded {}

  private RejoinProtocol() {}
}
