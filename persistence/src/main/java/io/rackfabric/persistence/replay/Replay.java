package io.rackfabric.persistence.replay;

import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.ControllerState;
import io.rackfabric.persistence.replay.JournalReader.Snapshot;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The replay debugger's questions to a journal: the state after an event, and where two
 * journals of one controller part. States are folded with {@link ControllerState#apply}, the
 * controller's own event handler, from the template snapshot when one lies at or below the event.
 */
public final class Replay {

  private Replay() {}

  /**
   * The state after event {@code seqNr}.
   *
   * @param snapshotSeqNr the snapshot the fold started from, -1 when it started from the empty state
   * @param eventsFolded events decoded and folded after the snapshot
   * @param nanos wall time of reading, decoding and folding
   */
  public record Folded(String persistenceId, Path journal, long seqNr, ControllerState state,
      long snapshotSeqNr, int eventsFolded, long nanos) {

    public double eventsPerSecond() {
      return nanos == 0 ? 0 : eventsFolded * 1e9 / nanos;
    }
  }

  /** The state after event {@code seqNr} (0: before the first) of {@code persistenceId}. */
  public static Folded stateAt(JournalReader journal, String persistenceId, long seqNr)
      throws ReplayException {
    Optional<IdSummary> summary = journal.summary(persistenceId);
    if (summary.isEmpty()) {
      throw new ReplayException("id=" + persistenceId + " is not in " + journal.file());
    }
    long highest = summary.get().highestSeqNr();
    if (seqNr < 0 || seqNr > highest) {
      throw new ReplayException("seqNr=" + seqNr + " not in [0," + highest + "]: id="
          + persistenceId + " in " + journal.file() + " ends at event " + highest);
    }
    long start = System.nanoTime();
    Optional<Snapshot> snapshot = journal.snapshotAtOrBelow(persistenceId, seqNr);
    ControllerState state = snapshot.map(Snapshot::state).orElse(ControllerState.empty());
    long from = snapshot.map(Snapshot::seqNr).orElse(0L);
    List<JournalEntry> events = journal.events(persistenceId, from, seqNr);
    for (JournalEntry e : events) {
      state = state.apply(e.event());
    }
    return new Folded(persistenceId, journal.file(), seqNr, state, snapshot.isPresent() ? from : -1,
        events.size(), System.nanoTime() - start);
  }

  public enum Verdict {
    /** Same events under the same sequence numbers. */
    IDENTICAL,
    /** One journal holds the other's events and more: a backup that lags, not a divergence. */
    PREFIX,
    /** The journals hold different events under one sequence number. */
    DIVERGED
  }

  /**
   * One persistence id in two journals.
   *
   * @param lengthA events of the id in the first journal, 0 when it does not hold the id
   * @param seqNr where they part when DIVERGED, else -1
   * @param a the first journal's event there (null unless DIVERGED); {@code b} the second's
   */
  public record Comparison(String persistenceId, Verdict verdict, long lengthA, long lengthB,
      long seqNr, JournalEntry a, JournalEntry b) {}

  /**
   * Compares {@code persistenceId}, or when empty every id either journal holds, event by event.
   * When the journals share no id (the MMH's node journal and the BMH's, each holding its host's
   * own id and, once it rejoined as backup, its later tenures: {@code controller-mmh},
   * {@code controller-mmh.tenure-2}), each id of one is compared with each of the other, so every
   * tenure of one host meets every tenure of the other (both hosts rejoined once after a second
   * take-over: four pairs).
   */
  public static List<Comparison> compare(Journals a, Journals b, Optional<String> persistenceId)
      throws ReplayException {
    if (persistenceId.isEmpty() && java.util.Collections.disjoint(a.ids(), b.ids())
        && !a.ids().isEmpty() && !b.ids().isEmpty()) {
      List<Comparison> out = new java.util.ArrayList<>();
      for (String ia : a.ids()) {
        for (String ib : b.ids()) {
          out.add(compare(ia + " ~ " + ib, events(a.find(ia), ia), events(b.find(ib), ib)));
        }
      }
      return out;
    }
    SortedSet<String> ids = new TreeSet<>();
    if (persistenceId.isPresent()) {
      ids.add(persistenceId.get());
    } else {
      ids.addAll(a.ids());
      ids.addAll(b.ids());
    }
    List<Comparison> out = new ArrayList<>();
    for (String id : ids) {
      Optional<JournalReader> ra = a.find(id);
      Optional<JournalReader> rb = b.find(id);
      if (ra.isEmpty() && rb.isEmpty()) {
        throw new ReplayException("id=" + id + " is in neither " + a.path() + " nor " + b.path());
      }
      out.add(compare(id, events(ra, id), events(rb, id)));
    }
    return out;
  }

  /**
   * Compares two journals' events (each in sequence-number order) under the label {@code id}: their
   * replicated change logs, without a step-down that ended a tenure
   * ({@link ControllerEvent.SteppedDown}, a journal's last event, persisted by the fenced master
   * alone): the lengths are the change logs'.
   */
  public static Comparison compare(String id, List<JournalEntry> journalA, List<JournalEntry> journalB) {
    List<JournalEntry> a = ControllerEvent.changeLog(journalA, JournalEntry::event);
    List<JournalEntry> b = ControllerEvent.changeLog(journalB, JournalEntry::event);
    int common = Math.min(a.size(), b.size());
    for (int i = 0; i < common; i++) {
      JournalEntry x = a.get(i);
      JournalEntry y = b.get(i);
      if (x.seqNr() != y.seqNr() || !x.event().equals(y.event())) {
        return new Comparison(id, Verdict.DIVERGED, a.size(), b.size(),
            Math.min(x.seqNr(), y.seqNr()), x, y);
      }
    }
    Verdict verdict = a.size() == b.size() ? Verdict.IDENTICAL : Verdict.PREFIX;
    return new Comparison(id, verdict, a.size(), b.size(), -1, null, null);
  }

  private static List<JournalEntry> events(Optional<JournalReader> journal, String id)
      throws ReplayException {
    return journal.isEmpty() ? List.of() : journal.get().events(id, 0, Long.MAX_VALUE);
  }
}
