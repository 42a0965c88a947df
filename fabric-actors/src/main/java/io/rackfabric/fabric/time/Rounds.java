package io.rackfabric.fabric.time;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The keeper's decision of each round, the conservative rule applied to the books ({@link SyncBook}):
 * from every running member's earliest pending event, the safe time of each ({@link
 * SyncGraph#safeTimes}), capped by the hold in force; a grant to each member with an event before
 * its safe time; when none has one, the zero-lookahead tie; and how far background events may run
 * (the busy frontier). Counts the rounds and grants it made.
 *
 * <p>Not thread-safe: one owner, the books.
 */
final class Rounds {

  private long rounds;
  private long grants;
  private long nextRound;
  /** The latest time the earliest busy event anywhere has been at: how far busy work has gone. */
  private long busyFrontier = Long.MIN_VALUE;

  /**
   * The grants of the next round (none when nothing may be handled), each member granted marked
   * outstanding for that round. The books call it only with nothing in flight and no grant
   * outstanding.
   *
   * @param held the hold in force: nothing at or after it is granted
   * @param earliestBusy the earliest pending event anywhere that is not background
   */
  List<SyncBook.Granted> next(SyncGraph graph, Roster members, long held, long earliestBusy) {
    if (earliestBusy != Long.MAX_VALUE) {
      busyFrontier = Math.max(busyFrontier, earliestBusy);
    }
    long background = backgroundLimit(held);
    int n = graph.size();
    long[] next = new long[n];
    for (int i = 0; i < n; i++) {
      SyncMember m = members.at(i);
      next[i] = m == null || !m.running ? Long.MAX_VALUE : m.next;
    }
    long[] safe = graph.safeTimes(next);
    for (int i = 0; i < n; i++) {
      safe[i] = Math.min(safe[i], held);
    }
    List<SyncBook.Granted> out = new ArrayList<>();
    long round = nextRound;
    for (int i = 0; i < n; i++) {
      SyncMember m = members.at(i);
      if (m != null && m.running && m.next < safe[i] && m.mayStart(background)) {
        out.add(grant(m, round, safe[i], background));
      }
    }
    if (out.isEmpty()) {
      SyncMember tie = zeroLookaheadTie(members.byName(), held, background);
      if (tie != null) {
        out.add(grant(tie, round, tie.next + 1, background));
      }
    }
    if (!out.isEmpty()) {
      nextRound++;
      rounds++;
      grants += out.size();
    }
    return out;
  }

  /**
   * Background events (a host's periodic timers) run only as far as the rack has work to do:
   * under a run driver's hold ({@code held}) up to the hold (the heartbeats up to a kill),
   * released up to the busy frontier, inclusive. So a timer alone never keeps a rack running (a
   * rack with a heartbeat would otherwise never be idle, and the model would run away while a
   * driver waits for idle), and a released rack that goes idle has handled every event up to its
   * last busy one and no background event past it.
   */
  long backgroundLimit(long held) {
    if (held != Long.MAX_VALUE) {
      return held;
    }
    return busyFrontier == Long.MIN_VALUE ? Long.MIN_VALUE : busyFrontier + 1;
  }

  private static SyncBook.Granted grant(SyncMember m, long round, long until, long background) {
    m.outstanding = true;
    m.grantRound = round;
    return new SyncBook.Granted(m.ref, round, until, background, m.since);
  }

  /**
   * When no component may go on by the rule, every one waits on a chain of lookahead 0 from an
   * event at the earliest time T (two pieces of host software that answer each other at once, a
   * switch latency set to 0). Nothing can then reach anyone before T, so one component holding an
   * event at T may handle its events at T: the one whose name sorts first, never the one whose
   * report came first. What others send it stamped T later is handled at T too, after them. Null
   * when nothing is pending before the hold.
   */
  private static SyncMember zeroLookaheadTie(Map<String, SyncMember> members, long held, long background) {
    String first = null;
    SyncMember tie = null;
    for (Map.Entry<String, SyncMember> e : members.entrySet()) {
      SyncMember m = e.getValue();
      if (!m.running || m.next == Long.MAX_VALUE || m.next >= held || !m.mayStart(background)) {
        continue;
      }
      if (tie == null || m.next < tie.next || (m.next == tie.next && e.getKey().compareTo(first) < 0)) {
        tie = m;
        first = e.getKey();
      }
    }
    return tie;
  }

  long rounds() {
    return rounds;
  }

  long grants() {
    return grants;
  }
}
