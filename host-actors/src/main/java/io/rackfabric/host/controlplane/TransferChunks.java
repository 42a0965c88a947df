package io.rackfabric.host.controlplane;

import io.rackfabric.host.controlplane.RejoinProtocol.ChunkPersisted;
import io.rackfabric.host.controlplane.RejoinProtocol.Joined;
import io.rackfabric.host.controlplane.RejoinProtocol.TransferAnswer;
import io.rackfabric.persistence.controller.ControllerEvent;
import java.util.List;
import java.util.Optional;

/**
 * The master's side of a chunked state transfer, apart from the actors: the events a joiner lacks
 * ({@link RejoinCheck.Admit}) cut into chunks of at most {@code chunkEvents}, one outstanding at a
 * time (credit of one: the joiner persists a chunk and acknowledges it before it gets the next, so
 * neither a message's frame nor the joiner's persistent actor is flooded). Every chunk but the last
 * is answered {@link ChunkPersisted} up to its end; the last, which reaches the master's last
 * sequence number (and is the only one when nothing is missing), is answered {@link Joined}. Any
 * other answer, or one not ok, ends the transfer: {@link #failed} from then on.
 *
 * <p>A bulk ({@code endsTransfer} false: the history the master held when it admitted the joiner,
 * sent while it serves) ends at its last chunk answered {@link ChunkPersisted}: {@link #done}, and
 * the tail, a transfer of its own, follows.
 */
final class TransferChunks {

  /** A chunk: {@code events} numbered from {@code fromSeqNr}; {@code last} ends the transfer. */
  record Chunk(long fromSeqNr, List<ControllerEvent> events, boolean last) {

    long endSeqNr() {
      return fromSeqNr + events.size() - 1;
    }
  }

  private final long fromSeqNr;
  private final List<ControllerEvent> events;
  private final int chunkEvents;
  private final boolean endsTransfer;
  private int sent; // events sent so far, in chunks
  private int chunks;
  private Chunk outstanding;
  private boolean done;
  private String failure;

  /**
   * @param fromSeqNr the sequence number of {@code events}' first
   * @param events every event the joiner lacks, up to the master's last
   * @param chunkEvents at most this many events per chunk, at least 1
   */
  TransferChunks(long fromSeqNr, List<ControllerEvent> events, int chunkEvents) {
    this(fromSeqNr, events, chunkEvents, true);
  }

  /**
   * @param endsTransfer false for a bulk, whose last chunk is answered {@link ChunkPersisted}: it
   *     must hold at least one event
   */
  TransferChunks(long fromSeqNr, List<ControllerEvent> events, int chunkEvents, boolean endsTransfer) {
    if (!endsTransfer && events.isEmpty()) {
      throw new IllegalArgumentException("an empty bulk from seqNr " + fromSeqNr + ": send the tail alone");
    }
    if (chunkEvents < 1) {
      throw new IllegalArgumentException("chunkEvents=" + chunkEvents + " must be at least 1");
    }
    if (fromSeqNr < 1) {
      throw new IllegalArgumentException("fromSeqNr=" + fromSeqNr + " must be at least 1");
    }
    this.fromSeqNr = fromSeqNr;
    this.events = List.copyOf(events);
    this.chunkEvents = chunkEvents;
    this.endsTransfer = endsTransfer;
  }

  /** Whether the last chunk ends the transfer (else it is a bulk's, and the tail follows). */
  boolean endsTransfer() {
    return endsTransfer;
  }

  /** The master's last sequence number: where the transfer ends. */
  long lastSeqNr() {
    return fromSeqNr + events.size() - 1;
  }

  /** The next chunk to send; none may be outstanding, and the transfer must be neither over nor failed. */
  Chunk next() {
    if (outstanding != null) {
      throw new IllegalStateException("chunk from seqNr " + outstanding.fromSeqNr() + " is not acknowledged yet");
    }
    if (done || failure != null) {
      throw new IllegalStateException("the transfer is over: " + (done ? "done" : failure));
    }
    int to = Math.min(events.size(), sent + chunkEvents);
    outstanding = new Chunk(fromSeqNr + sent, events.subList(sent, to), to == events.size());
    sent = to;
    chunks++;
    return outstanding;
  }

  /**
   * The joiner's answer to the outstanding chunk: empty when it persisted it as asked (then {@link
   * #next} the following chunk, or, after the last, {@link #done}); else what went wrong, and the
   * transfer has failed.
   */
  Optional<String> answered(TransferAnswer answer) {
    Optional<String> problem = problem(answer);
    if (problem.isPresent()) {
      failure = problem.get();
    } else {
      done = outstanding.last();
    }
    outstanding = null;
    return problem;
  }

  private Optional<String> problem(TransferAnswer answer) {
    if (failure != null || done) {
      return Optional.of("an answer after the transfer ended: " + answer);
    }
    if (outstanding == null) {
      return Optional.of("an answer with no chunk outstanding: " + answer);
    }
    if (answer instanceof Joined j && !j.ok()) {
      return Optional.of(j.detail());
    }
    boolean joins = outstanding.last() && endsTransfer;
    if (joins != answer instanceof Joined) {
      return Optional.of(joins ? "the last chunk was answered " + answer + ", not Joined"
          : "the chunk to seqNr " + outstanding.endSeqNr() + " was answered " + answer + " before the last chunk");
    }
    if (answer.lastSeqNr() != outstanding.endSeqNr()) {
      return Optional.of("the joiner's journal ends at seqNr " + answer.lastSeqNr() + ", the chunk at "
          + outstanding.endSeqNr());
    }
    return Optional.empty();
  }

  /** Ends the transfer for {@code why} (no answer in time): nothing more is sent. */
  void fail(String why) {
    failure = why;
    outstanding = null;
  }

  /**
   * The joiner persisted the last chunk: verified it, and it is the backup, when it ends the transfer;
   * else the bulk is persisted and the tail may follow.
   */
  boolean done() {
    return done;
  }

  /** Why the transfer ended short, or null. */
  String failure() {
    return failure;
  }

  /** How many chunks were sent so far. */
  int chunks() {
    return chunks;
  }

  /** How many events were sent so far. */
  int eventsSent() {
    return sent;
  }
}
