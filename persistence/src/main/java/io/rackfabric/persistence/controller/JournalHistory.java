package io.rackfabric.persistence.controller;

import akka.actor.NoSerializationVerificationNeeded;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;

/**
 * A controller journal's whole change log, the event numbered {@code i} at index {@code i - 1},
 * and its chain of digests: digest {@code i} covers events 1 to {@code i}, so two journals agree
 * up to {@code i} exactly when their digests {@code i} are equal, and the first unequal digest is
 * the first sequence number at which they differ. A rejoining management host sends its chain,
 * not its events: the master compares and sends only the events the host lacks.
 *
 * <p>An event's digest is taken over its text form (records print every field, enums their name),
 * which is the same in every JVM of one build; {@code hashCode} is not (an enum's is its identity).
 * Digests are compared between running hosts only, never stored. The history itself stays in the
 * JVM that read it: a bounded sample of the chain crosses the link (its last digest proves the
 * whole prefix), not the events.
 *
 * <p>A journal whose tenure ended with a step-down ({@link ControllerEvent.SteppedDown}, its last
 * event) is read as its replicated change log, the events before it: the step-down is kept apart
 * ({@link #stepDown}), so the fenced master's journal is still a prefix of the master's, and a
 * rejoin copies only the change log into its new tenure.
 *
 * @param events the replicated change log from sequence number 1, without a gap
 * @param stepDown the step-down that ended the journal's tenure, null when none
 */
public record JournalHistory(List<ControllerEvent> events, ControllerEvent.SteppedDown stepDown)
    implements NoSerializationVerificationNeeded {

  public JournalHistory {
    events = List.copyOf(events);
    if (ControllerEvent.stepDown(events, e -> e).isPresent()) {
      throw new IllegalArgumentException("events end with a step-down: give it as stepDown");
    }
  }

  /** A journal's events from sequence number 1, its tenure-ending step-down, if any, set apart. */
  public JournalHistory(List<ControllerEvent> journal) {
    this(ControllerEvent.changeLog(journal, e -> e), ControllerEvent.stepDown(journal, e -> e).orElse(null));
  }

  public long lastSeqNr() {
    return events.size();
  }

  /** The digests of events 1 to {@code i}, for each {@code i} from 1 to {@link #lastSeqNr()}. */
  public List<Long> chain() {
    List<Long> chain = new ArrayList<>(events.size());
    long digest = 0;
    MessageDigest sha = sha256(); // one for the whole chain: a look-up per event costs more than the hash
    for (ControllerEvent e : events) {
      digest = link(sha, digest, e);
      chain.add(digest);
    }
    return chain;
  }

  /** The events numbered after {@code seqNr}, in order. */
  public List<ControllerEvent> after(long seqNr) {
    if (seqNr < 0 || seqNr > lastSeqNr()) {
      throw new IllegalArgumentException("seqNr=" + seqNr + " not in [0, " + lastSeqNr() + "]");
    }
    return events.subList((int) seqNr, events.size());
  }

  /** The digest of a journal up to {@code event}, given the digest up to the event before. */
  public static long link(long previous, ControllerEvent event) {
    return link(sha256(), previous, event);
  }

  /**
   * A digest of a controller's state, taken, as an event's, over a text form that is the same in
   * every JVM of one build: its snapshot form's (records and lists in the state's sorted order).
   * A rejoin's joiner compares it with the master's instead of receiving the state, which grows with
   * the rack's open IOMMU pages and could exceed a message's frame.
   */
  public static long digestOf(ControllerState state) {
    MessageDigest sha = sha256();
    sha.update(state.toSnapshot().toString().getBytes(StandardCharsets.UTF_8));
    return ByteBuffer.wrap(sha.digest()).getLong();
  }

  private static long link(MessageDigest sha, long previous, ControllerEvent event) {
    sha.reset();
    sha.update(ByteBuffer.allocate(Long.BYTES).putLong(previous).array());
    sha.update(event.toString().getBytes(StandardCharsets.UTF_8));
    return ByteBuffer.wrap(sha.digest()).getLong();
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
