package io.rackfabric.host.controlplane;

import akka.persistence.typed.PersistenceId;
import io.rackfabric.persistence.controller.Controller.CurrentState;
import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.JournalHistory;
import io.rackfabric.persistence.controller.Tenure;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The decisions of a rejoin, apart from the actors: whether the master admits a host as its backup
 * (its journal must be a prefix of the master's: the same digest chain up to its last event) and
 * what to send it (the events after that), whether the joiner accepts what it was sent, and the
 * persistence id of the joiner's new tenure.
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

  /** The master's verdict on a joiner. */
  sealed interface Verdict {}

  /** Admitted: send {@code events}, numbered from {@code fromSeqNr}, with the state after the last. */
  record Admit(long fromSeqNr, List<ControllerEvent> events) implements Verdict {}

  /** Refused for {@code reason}; the journals first differ at {@code firstDifferingSeqNr}. */
  record Refuse(String reason, long firstDifferingSeqNr) implements Verdict {}

  private RejoinCheck() {}

  /**
   * @param joiner the host asking to rejoin
   * @param lastSeqNr the joiner's last sequence number
   * @param chain the joiner's digests of events 1 to each sequence number
   * @param master the master's journal, whole
   */
  static Verdict decide(String joiner, long lastSeqNr, List<Long> chain, JournalHistory master) {
    if (chain.size() != lastSeqNr) {
      return new Refuse(joiner + " sent " + chain.size() + " digests for lastSeqNr=" + lastSeqNr
          + ": one per event is needed", Math.min(chain.size(), Math.max(0, lastSeqNr)) + 1);
    }
    List<Long> own = master.chain();
    int common = (int) Math.min(lastSeqNr, own.size());
    for (int i = 0; i < common; i++) {
      if (!chain.get(i).equals(own.get(i))) {
        long seqNr = i + 1L;
        return new Refuse(joiner + "'s journal is not a prefix of the master's history: event " + seqNr
            + " differs (a different rack, or a diverged tenure)", seqNr);
      }
    }
    if (lastSeqNr > own.size()) {
      return new Refuse(joiner + "'s journal ends at seqNr " + lastSeqNr + ", past the master's last, "
          + own.size() + ": not a prefix of the master's history", own.size() + 1L);
    }
    return new Admit(lastSeqNr + 1, master.after(lastSeqNr));
  }

  /**
   * The joiner's check of a transfer before it writes anything: the events must follow its own
   * last ({@code ownLastSeqNr}) and end at the master's last. Empty when they do.
   */
  static Optional<String> checkNumbers(long ownLastSeqNr, ControlPlaneHost.StateTransfer transfer) {
    if (transfer.fromSeqNr() != ownLastSeqNr + 1) {
      return Optional.of("transfer from seqNr " + transfer.fromSeqNr() + " but this journal ends at " + ownLastSeqNr);
    }
    if (transfer.fromSeqNr() + transfer.events().size() - 1 != transfer.lastSeqNr()) {
      return Optional.of("transfer of " + transfer.events().size() + " events from seqNr " + transfer.fromSeqNr()
          + " does not end at the master's lastSeqNr=" + transfer.lastSeqNr());
    }
    return Optional.empty();
  }

  /**
   * The joiner's check of its new journal once written ({@code written}: its state, null if it did
   * not answer): it must end where the master's did, in an equal state. Empty when it does.
   */
  static Optional<String> checkWritten(ControlPlaneHost.StateTransfer transfer, CurrentState written) {
    if (written == null) {
      return Optional.of("the new journal did not answer");
    }
    if (written.lastSeqNr() != transfer.lastSeqNr()) {
      return Optional.of("lastSeqNr: master=" + transfer.lastSeqNr() + " rejoined=" + written.lastSeqNr());
    }
    if (!written.state().equals(transfer.state())) {
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
