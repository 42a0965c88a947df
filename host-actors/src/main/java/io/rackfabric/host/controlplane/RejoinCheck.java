package io.rackfabric.host.controlplane;

import akka.actor.typed.ActorRef;
import akka.persistence.typed.PersistenceId;
import io.rackfabric.fabric.endpoint.GuestAddress;
import io.rackfabric.persistence.controller.Controller.CurrentState;
import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.JournalHistory;
import io.rackfabric.persistence.controller.Tenure;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The decisions of a rejoin, apart from the actors: whether the master admits a host as its backup
 * (its journal must be a prefix of the master's: the same digest at its last event, which covers
 * every event before it) and what to send it (the events after that), whether the joiner accepts
 * each chunk it was sent and the state it folded, and the persistence id of the joiner's new
 * tenure. {@link TransferChunks} cuts the transfer into chunks.
 *
 * <p>A rejoined host writes a new journal under a new persistence id (its old one's id plus
 * {@code .tenure-K}, {@link Tenure}): its own verified events, then the transferred ones. The old journal stays
 * exactly as the fenced master left it, the evidence of what it acknowledged, and {@code rack
 * replay} lists each tenure as a persistence id of its own; the new one is complete by itself, so
 * a later take-over recovers from it like any other. A new id rather than a generation number in
 * the events: no event or state field changes, and nothing is ever appended to a journal whose
 * history was not the master's.
 */
final class RejoinCheck {

  /**
   * At most this many digests of a joiner's chain go with its join request, evenly spaced and
   * ending with its last (a sequence number and a digest each, about 14 KiB in all on the wire, far
   * below Artery's 256 KiB frame; the whole chain, about 10 bytes per event with Kryo, exceeds it
   * from about 26,000 events).
   */
  static final int SAMPLE_DIGESTS = 1_024;

  /** The master's verdict on a joiner. */
  sealed interface Verdict {}

  /** Admitted: send {@code events}, numbered from {@code fromSeqNr}, with the state after the last. */
  record Admit(long fromSeqNr, List<ControllerEvent> events) implements Verdict {}

  /**
   * Refused for {@code reason}; every event before {@code firstDifferingSeqNr} is the same in both
   * journals, and that one differs (or lies past the master's last). Only a joiner that answered the
   * narrowing with other digests than asked leaves it a lower bound (the reason says so); -1: not
   * compared.
   */
  record Refuse(String reason, long firstDifferingSeqNr) implements Verdict {}

  /**
   * Not a prefix, the first differing event not located yet: every event up to {@code agreed} is the
   * same in both journals and the one at {@code differs} is not (its digests differ, or with {@code
   * pastMaster} the master's journal ends before it), so the first difference lies in {@code
   * agreed + 1..differs}. The master asks the joiner for its digests at {@link #wanted} (a bounded
   * sample, as the join request's) and narrows the range with them ({@link RejoinCheck#narrow}).
   *
   * @param joinerLast the joiner's last sequence number
   */
  record Narrow(long agreed, long differs, long joinerLast, boolean pastMaster) implements Verdict {

    Narrow {
      if (agreed < 0 || differs <= agreed + 1 || differs > joinerLast) {
        throw new IllegalArgumentException("agreed=" + agreed + " differs=" + differs + " joinerLast=" + joinerLast
            + ": no range of at least two seqNrs within the joiner's journal");
      }
    }

    /** The sequence numbers between {@code agreed} and {@code differs} whose digests the master asks for. */
    List<Long> wanted() {
      return sample(agreed, differs - agreed - 1);
    }
  }

  private RejoinCheck() {}

  /**
   * The sequence numbers whose digests a join request carries for a journal ending at {@code
   * lastSeqNr}: every one from 1 when there are at most {@link #SAMPLE_DIGESTS}, else {@link
   * #SAMPLE_DIGESTS} evenly spaced, {@code ceil(k * lastSeqNr / SAMPLE_DIGESTS)} for {@code k} from
   * 1, the last being {@code lastSeqNr}. Since digest {@code i} covers events 1 to {@code i}, the
   * last alone proves the whole prefix; the others locate a difference.
   */
  static List<Long> sampleSeqNrs(long lastSeqNr) {
    if (lastSeqNr < 0) {
      throw new IllegalArgumentException("lastSeqNr=" + lastSeqNr + " is negative");
    }
    return sample(0, lastSeqNr);
  }

  /**
   * The {@code count} sequence numbers after {@code after}, or {@link #SAMPLE_DIGESTS} of them
   * evenly spaced when there are more ({@code after + ceil(k * count / SAMPLE_DIGESTS)}), always
   * ending with {@code after + count}.
   */
  static List<Long> sample(long after, long count) {
    List<Long> out = new ArrayList<>();
    if (count <= SAMPLE_DIGESTS) {
      for (long i = 1; i <= count; i++) {
        out.add(after + i);
      }
      return out;
    }
    for (long k = 1; k <= SAMPLE_DIGESTS; k++) {
      out.add(after + (k * count + SAMPLE_DIGESTS - 1) / SAMPLE_DIGESTS);
    }
    return out;
  }

  /** The digests of {@code own}'s chain at {@code seqNrs} (each in 1..its last). */
  static List<Long> digestsAt(JournalHistory own, List<Long> seqNrs) {
    List<Long> chain = own.chain();
    List<Long> digests = new ArrayList<>(seqNrs.size());
    for (long seqNr : seqNrs) {
      digests.add(chain.get((int) seqNr - 1));
    }
    return digests;
  }

  /** A joiner's request: its last sequence number and its chain's digests at {@link #sampleSeqNrs}. */
  static RejoinProtocol.JoinAsBackup joinRequest(String joiner, JournalHistory own, long sentAt,
      ActorRef<ControlPlaneHost.Command> from, GuestAddress guest) {
    List<Long> at = sampleSeqNrs(own.lastSeqNr());
    return new RejoinProtocol.JoinAsBackup(joiner, own.lastSeqNr(), at, digestsAt(own, at), sentAt, from, guest);
  }

  /**
   * The master's decision on {@code join} against its journal, whole ({@code master}): admitted when
   * the joiner's last digest is the master's at the joiner's last sequence number (the journals
   * agree up to there). Refused otherwise, naming the first differing event when the sample holds
   * the digest of the event before it; else the master narrows the range it lies in ({@link Narrow}).
   */
  static Verdict decide(RejoinProtocol.JoinAsBackup join, JournalHistory master) {
    return decide(join.host(), join.lastSeqNr(), join.sampleSeqNrs(), join.sampleDigests(), master);
  }

  /**
   * @param joiner the host asking to rejoin
   * @param lastSeqNr the joiner's last sequence number
   * @param seqNrs sequence numbers of the joiner's chain, increasing, ending at {@code lastSeqNr}
   * @param digests the joiner's digests of events 1 to each of {@code seqNrs}
   * @param master the master's journal, whole
   */
  static Verdict decide(String joiner, long lastSeqNr, List<Long> seqNrs, List<Long> digests,
      JournalHistory master) {
    Optional<String> malformed = malformed(lastSeqNr, seqNrs, digests);
    if (malformed.isPresent()) {
      return new Refuse(joiner + " sent a malformed join request: " + malformed.get(), -1);
    }
    List<Long> own = master.chain();
    long masterLast = own.size();
    Located located = locate(joiner, lastSeqNr, 0, seqNrs, digests, own);
    if (located.verdict() != null) {
      return located.verdict();
    }
    long agreed = located.agreed();
    if (lastSeqNr > masterLast) {
      return agreed == masterLast ? pastMaster(joiner, lastSeqNr, masterLast)
          : new Narrow(agreed, masterLast + 1, lastSeqNr, true);
    }
    return new Admit(lastSeqNr + 1, master.after(lastSeqNr));
  }

  /**
   * One round of the narrowing: the joiner's digests at {@code n.wanted()} ({@code seqNrs}, which
   * must be exactly those) against the master's chain. Refused naming the first differing event once
   * it is known; else a narrower range to ask about. Each round divides the range by about {@link
   * #SAMPLE_DIGESTS} + 1, so a journal of a million events needs two rounds after the request.
   */
  static Verdict narrow(String joiner, Narrow n, List<Long> seqNrs, List<Long> digests, JournalHistory master) {
    List<Long> wanted = n.wanted();
    if (!seqNrs.equals(wanted) || digests.size() != seqNrs.size()) {
      return new Refuse(joiner + " answered the narrowing of seqNr " + (n.agreed() + 1) + ".." + n.differs()
          + " with " + digests.size() + " digests at " + describe(seqNrs) + ", not at the " + wanted.size()
          + " asked (" + describe(wanted) + "); events up to " + n.agreed() + " agree", n.agreed() + 1);
    }
    Located located = locate(joiner, n.joinerLast(), n.agreed(), seqNrs, digests, master.chain());
    if (located.verdict() != null) {
      return located.verdict();
    }
    // Every digest before n.differs() agrees (the last asked is n.differs() - 1): that one is the first.
    return n.pastMaster() ? pastMaster(joiner, n.joinerLast(), n.differs() - 1) : differsAt(joiner, n.differs());
  }

  /**
   * The first comparison of digests at {@code seqNrs} up to the master's last that differs, after
   * {@code agreed} (every event up to it the same): refused when it is the event right after, a
   * {@link Narrow} when a range lies between; {@code verdict} null when none differs, {@code agreed}
   * then the last compared.
   */
  private static Located locate(String joiner, long joinerLast, long agreed, List<Long> seqNrs, List<Long> digests,
      List<Long> own) {
    for (int k = 0; k < seqNrs.size() && seqNrs.get(k) <= own.size(); k++) {
      long at = seqNrs.get(k);
      if (!digests.get(k).equals(own.get((int) at - 1))) {
        return new Located(agreed, at == agreed + 1 ? differsAt(joiner, at) : new Narrow(agreed, at, joinerLast, false));
      }
      agreed = at;
    }
    return new Located(agreed, null);
  }

  private record Located(long agreed, Verdict verdict) {}

  private static Refuse differsAt(String joiner, long at) {
    return new Refuse(joiner + "'s journal is not a prefix of the master's history: event " + at + " differs (events up"
        + " to " + (at - 1) + " agree; a different rack, or a diverged tenure)", at);
  }

  private static Refuse pastMaster(String joiner, long joinerLast, long masterLast) {
    return new Refuse(joiner + "'s journal ends at seqNr " + joinerLast + ", past the master's last, " + masterLast
        + ": not a prefix of the master's history (events up to " + masterLast + " agree)", masterLast + 1);
  }

  private static String describe(List<Long> seqNrs) {
    return seqNrs.isEmpty() ? "none" : seqNrs.get(0) + ".." + seqNrs.get(seqNrs.size() - 1);
  }

  private static Optional<String> malformed(long lastSeqNr, List<Long> seqNrs, List<Long> digests) {
    if (lastSeqNr < 0) {
      return Optional.of("lastSeqNr=" + lastSeqNr + " is negative");
    }
    if (seqNrs.size() != digests.size()) {
      return Optional.of(seqNrs.size() + " sequence numbers for " + digests.size() + " digests");
    }
    if (seqNrs.isEmpty() != (lastSeqNr == 0)) {
      return Optional.of(seqNrs.size() + " digests for lastSeqNr=" + lastSeqNr);
    }
    long before = 0;
    for (long seqNr : seqNrs) {
      if (seqNr <= before || seqNr > lastSeqNr) {
        return Optional.of("sampled seqNr " + seqNr + " after " + before + " is not in (" + before + ", " + lastSeqNr
            + "]");
      }
      before = seqNr;
    }
    if (before != lastSeqNr) {
      return Optional.of("the sample ends at seqNr " + before + ", not at lastSeqNr=" + lastSeqNr);
    }
    return Optional.empty();
  }

  /**
   * The joiner's check of a chunk of the transfer before it writes anything: its events must follow
   * what its new journal holds ({@code writtenUpTo}; before the first chunk, its own last) and end
   * at the master's last or before; only the last chunk may be empty. Empty when they do.
   */
  static Optional<String> checkNumbers(long writtenUpTo, RejoinProtocol.StateTransfer chunk) {
    if (chunk.fromSeqNr() != writtenUpTo + 1) {
      return Optional.of("transfer from seqNr " + chunk.fromSeqNr() + " but this journal ends at " + writtenUpTo);
    }
    if (chunk.endSeqNr() > chunk.lastSeqNr()) {
      return Optional.of("chunk of " + chunk.events().size() + " events from seqNr " + chunk.fromSeqNr()
          + " goes past the master's lastSeqNr=" + chunk.lastSeqNr());
    }
    if (chunk.events().isEmpty() && !chunk.last()) {
      return Optional.of("empty chunk from seqNr " + chunk.fromSeqNr() + " before the master's lastSeqNr="
          + chunk.lastSeqNr());
    }
    return Optional.empty();
  }

  /**
   * The joiner's check of its new journal once the last chunk is written ({@code written}: its
   * state, null if it did not answer): it must end where the master's did, in a state of the same
   * digest. Empty when it does.
   */
  static Optional<String> checkWritten(RejoinProtocol.StateTransfer last, CurrentState written) {
    if (written == null) {
      return Optional.of("the new journal did not answer");
    }
    if (written.lastSeqNr() != last.lastSeqNr()) {
      return Optional.of("lastSeqNr: master=" + last.lastSeqNr() + " rejoined=" + written.lastSeqNr());
    }
    if (JournalHistory.digestOf(written.state()) != last.stateDigest()) {
      return Optional.of("the states differ at lastSeqNr=" + written.lastSeqNr());
    }
    return Optional.empty();
  }

  /**
   * The new tenure's journal writes of {@code all} its events, in order, each of at most {@code
   * maxEvents} (one large write can outlast the journal's circuit breaker): the template image is
   * the snapshot taken after its event's write, so that event ends a write of its own, and the new
   * journal's snapshot is the template's state as in the old one. Each write is non-empty.
   */
  static List<List<ControllerEvent>> writes(List<ControllerEvent> all, int maxEvents) {
    if (maxEvents < 1) {
      throw new IllegalArgumentException("maxEvents=" + maxEvents + " must be at least 1");
    }
    int template = 0;
    for (int i = 0; i < all.size(); i++) {
      if (all.get(i) instanceof ControllerEvent.TemplateImageTaken) {
        template = i + 1;
      }
    }
    List<List<ControllerEvent>> out = new ArrayList<>();
    chunks(all.subList(0, template), maxEvents, out);
    chunks(all.subList(template, all.size()), maxEvents, out);
    return out;
  }

  private static void chunks(List<ControllerEvent> events, int maxEvents, List<List<ControllerEvent>> out) {
    for (int from = 0; from < events.size(); from += maxEvents) {
      out.add(events.subList(from, Math.min(events.size(), from + maxEvents)));
    }
  }

  /** The persistence id of the tenure after {@code id}'s ({@link Tenure}). */
  static PersistenceId nextTenure(PersistenceId id) {
    return PersistenceId.ofUniqueId(Tenure.of(id.id()).next().persistenceId());
  }
}
