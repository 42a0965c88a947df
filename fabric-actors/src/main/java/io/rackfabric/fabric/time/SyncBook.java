package io.rackfabric.fabric.time;

import akka.actor.typed.ActorRef;
import java.util.Collection;
import java.util.List;

/**
 * The time keeper's books, as a plain class: who joined ({@link Roster}), what each has sent on
 * each channel and received ({@link Inflows}), each one's earliest pending event, which grants are
 * outstanding, the driver's hold and the restarts ({@link Restarts}); the decision of the next
 * round is {@link Rounds}'s. The actor ({@link TimeKeeper}) only delivers messages.
 *
 * <p>Nothing is in flight when every running component has received exactly what was sent to
 * it. Counts are cumulative from each component's start, so messages sent before a component
 * joined balance once it has.
 *
 * <p>A component leaves in one of two ways. Retired by a run driver ({@link #retire}) after a
 * quiet hold, in which it reported its last sends and they all arrived, it leaves its counts
 * exact. Dead unannounced ({@link #remove}: its JVM died at a wall-time moment), what it sent
 * last may be lost or may still arrive, so each of its receivers is balanced from then on once it
 * has at least what the live senders account for: rounds go on rather than stall, and what such
 * a receiver is handed late counts as a straggler.
 *
 * <p>A component that left comes back only when a run driver said so ({@link #expectBack}: its
 * node's JVM is started again at a model time). It joins under its old name as a new incarnation
 * with fresh counts: what was sent to the name before it was expected back belongs to the old
 * incarnation (received or lost with it), what the old one sent stays in its receivers' counts, so
 * nothing is counted twice. Its clock starts at the restart's model time: the book treats nothing of it as
 * pending earlier and every grant tells it to start there ({@link Granted#since}). Until every
 * component expected back has joined, nothing at or after that time is granted to anyone: the
 * wall time spent starting the JVM costs no model time.
 */
final class SyncBook {

  /**
   * A grant to send; {@code since}: the model time the component's clock starts at (a restarted
   * component's restart time, {@code Long.MIN_VALUE} for one that never left).
   */
  record Granted(ActorRef<TimeKeeper.Grant> ref, long round, long until, long backgroundUntil, long since) {}

  private final SyncGraph graph = new SyncGraph();
  private final Roster members = new Roster();
  private final Rounds plan = new Rounds();
  private long reports;
  private final Inflows inflows = new Inflows();
  /** Running members that have not received what was sent to them. */
  private int unbalanced;
  private int outstanding;
  /** A run driver's hold: nothing at or after it is granted. */
  private long hold = Long.MAX_VALUE;
  private final Restarts restarts = new Restarts();

  /** Admits a component; returns why not, or null. */
  String register(String member, ActorRef<TimeKeeper.Grant> ref, List<TimeKeeper.Channel> channels, long[] sentTo,
      long received, long next, long stragglers) {
    return register(member, ref, channels, sentTo, received, next, next, stragglers, Long.MIN_VALUE);
  }

  /**
   * As above, with the earliest pending event that is not background ({@code nextBusy}) and the
   * model time of the last event the component handled ({@code now}).
   */
  String register(String member, ActorRef<TimeKeeper.Grant> ref, List<TimeKeeper.Channel> channels, long[] sentTo,
      long received, long next, long nextBusy, long stragglers, long now) {
    SyncMember before = members.get(member);
    Long back = restarts.expectedAt(member);
    if (before != null && back == null) {
      return before.running ? "a component named " + member + " has joined already"
          : "a component named " + member + " left and is not expected back (a run driver names it, with its"
              + " restart's model time, before its node starts again)";
    }
    if (sentTo.length != channels.size()) {
      return "sentTo has " + sentTo.length + " counts for " + channels.size() + " channels";
    }
    for (TimeKeeper.Channel c : channels) {
      if (c.lookaheadNs() < 0) {
        return "channel to " + c.to() + " has lookahead " + c.lookaheadNs() + " ns";
      }
    }
    int index = graph.add(member);
    int[] targets = new int[channels.size()];
    for (int k = 0; k < channels.size(); k++) {
      graph.channel(member, channels.get(k).to(), channels.get(k).lookaheadNs());
      targets[k] = graph.indexOf(channels.get(k).to());
    }
    SyncMember m = new SyncMember(index, ref, targets);
    if (before != null) {
      // Its predecessor's counts stay where they are: what it sent in its receivers' inflow, what
      // was sent to it in the inflow before this one; this one counts from nothing.
      Restarts.Return r = restarts.rejoined(member, before.stragglers, before.now);
      m.incarnation = before.incarnation + 1;
      m.since = r.at();
      m.inflowBefore = r.inflowBefore();
    }
    m.sentTo = sentTo.clone();
    m.received = received;
    m.next = m.at(next);
    m.nextBusy = m.at(nextBusy);
    m.stragglers = stragglers;
    m.now = now;
    members.put(member, m);
    grow();
    for (int k = 0; k < targets.length; k++) {
      inflows.add(targets[k], m.sentTo[k]);
      recheck(targets[k]);
    }
    recheck(index);
    reports++;
    return null;
  }

  void report(String member, long round, long[] sentTo, long received, long next, long stragglers) {
    report(member, round, sentTo, received, next, next, stragglers, Long.MIN_VALUE);
  }

  /** As above, with the earliest event that is not background and the model time of the last one handled. */
  void report(String member, long round, long[] sentTo, long received, long next, long nextBusy, long stragglers,
      long now) {
    SyncMember m = members.get(member);
    if (m == null || !m.running) {
      return;
    }
    reports++;
    if (sentTo.length == m.sentTo.length) {
      for (int k = 0; k < sentTo.length; k++) {
        long delta = sentTo[k] - m.sentTo[k];
        if (delta != 0) {
          inflows.add(m.targets[k], delta);
          recheck(m.targets[k]);
        }
      }
      m.sentTo = sentTo;
    }
    m.received = received;
    recheck(m.index);
    m.next = m.at(next);
    m.nextBusy = m.at(nextBusy);
    m.stragglers = stragglers;
    m.now = Math.max(m.now, now);
    if (round == m.grantRound && m.outstanding) {
      m.outstanding = false;
      outstanding--;
    }
  }

  private void grow() {
    inflows.ensure(graph.size());
  }

  /** Updates whether component {@code index} has received what was sent to it. */
  private void recheck(int index) {
    grow();
    SyncMember v = members.at(index);
    if (v == null || !v.running) {
      return;
    }
    boolean now = inflows.balanced(index, v.received, v.inflowBefore);
    if (now != v.balanced) {
      unbalanced += now ? -1 : 1;
      v.balanced = now;
    }
  }

  /**
   * A member a run driver took out after a quiet hold (see {@link TimeKeeper.Forget}): everything
   * it reported sending has arrived and it sends nothing more, so its receivers' counts stay exact.
   */
  void retire(String member) {
    SyncMember m = members.get(member);
    if (m != null && !m.running && m.unannounced) {
      // Its death was noticed before the driver's word that it left exact (a local actor's stop
      // is watched at once): its receivers' counts are exact again.
      m.unannounced = false;
      for (int k = 0; k < m.targets.length; k++) {
        int t = m.targets[k];
        inflows.senderRetired(t, m.sentTo[k]);
        recheck(t);
      }
      return;
    }
    stop(member, false);
  }

  /** A member that died unannounced: its last sends may be lost or still arrive (see above). */
  void remove(String member) {
    stop(member, true);
  }

  /**
   * As {@link #remove}, for incarnation {@code incarnation} of the member only: the death of an
   * incarnation a restart has replaced (noticed late, in wall time) changes nothing.
   */
  void remove(String member, int incarnation) {
    SyncMember m = members.get(member);
    if (m != null && m.incarnation == incarnation) {
      stop(member, true);
    }
  }

  /** The incarnation of {@code member} that joined last (0 for the first), -1 when none did. */
  int incarnation(String member) {
    SyncMember m = members.get(member);
    return m == null ? -1 : m.incarnation;
  }

  /**
   * A run driver restarts the node of these members (each left before) at model time {@code at}:
   * each may join again, as a new incarnation whose clock starts at {@code at}, and until all have,
   * nothing at or after {@code at} is granted. Returns why not, or null (then nothing changed).
   */
  String expectBack(Collection<String> back, long at) {
    String refused = Restarts.refusal(back, at, members.byName(), reached());
    if (refused != null) {
      return refused;
    }
    grow();
    for (String name : back) {
      // The rack is quiet before the restart: what was sent to the name so far was the
      // predecessor's; what is sent from now on (its partners' link once it trained, before it
      // joined, say) is the new component's, which counts what it receives from its start.
      restarts.expect(name, at, inflows.sentTo(graph.indexOf(name)));
    }
    return null;
  }

  /**
   * The model time {@code member}'s clock starts at: its restart's, expected or joined, else
   * {@code Long.MIN_VALUE}.
   */
  long startOf(String member) {
    Long back = restarts.expectedAt(member);
    if (back != null) {
      return back;
    }
    SyncMember m = members.get(member);
    return m == null ? Long.MIN_VALUE : m.since;
  }

  /** Members expected back that have not joined yet, by name. */
  List<String> awaitedBack() {
    return restarts.awaited();
  }

  /** The hold in force: the driver's, or before the restart of members not back yet. */
  private long holdInForce() {
    return restarts.holdBefore(hold);
  }

  private void stop(String member, boolean unannounced) {
    SyncMember m = members.get(member);
    if (m != null && m.running) {
      if (!m.balanced) {
        unbalanced--;
      }
      if (m.outstanding) {
        outstanding--;
      }
      m.running = false;
      m.outstanding = false;
      m.next = Long.MAX_VALUE;
      m.nextBusy = Long.MAX_VALUE;
      if (unannounced) {
        m.unannounced = true;
        grow();
        for (int k = 0; k < m.targets.length; k++) {
          int t = m.targets[k];
          inflows.senderDied(t, m.sentTo[k]);
          recheck(t);
        }
      }
    }
  }

  boolean joinedAll(Collection<String> expected) {
    return members.joinedAll(expected);
  }

  int joined() {
    return members.running();
  }

  /**
   * The grants of the next round ({@link Rounds}), or none while a grant is outstanding or a
   * message in flight.
   */
  List<Granted> nextRound() {
    if (anyOutstanding() || !balanced()) {
      return List.of();
    }
    List<Granted> out = plan.next(graph, members, holdInForce(), earliestBusy());
    outstanding += out.size();
    return out;
  }

  /** Who the next round waits for: members owing a report, else members owed messages; "" for none. */
  String waiting() {
    return Waiting.describe(members.byName(), inflows, restarts);
  }

  private boolean anyOutstanding() {
    return outstanding > 0;
  }

  /** Every running member has received what was sent to it. */
  boolean balanced() {
    return unbalanced == 0;
  }

  void holdBefore(long until) {
    hold = until;
  }

  /** The run driver's hold. */
  long hold() {
    return hold;
  }

  /** Nothing pending before {@code until}, nothing in flight, no grant outstanding. */
  boolean quietBefore(long until) {
    return !anyOutstanding() && earliest() >= until && balanced() && holdInForce() >= until;
  }

  /** Nothing in flight and no grant outstanding (events may be pending). */
  boolean settled() {
    return !anyOutstanding() && balanced();
  }

  /**
   * Nothing in flight, no grant outstanding, nothing pending but background events the rack will
   * not run now (see {@link Rounds#backgroundLimit}).
   */
  boolean idle() {
    return !anyOutstanding() && earliestBusy() == Long.MAX_VALUE && earliest() >= plan.backgroundLimit(holdInForce())
        && balanced() && restarts.noneAwaited();
  }

  /** The earliest pending event that is not background, {@code Long.MAX_VALUE} when none. */
  long earliestBusy() {
    return members.earliestBusy();
  }

  /** The earliest pending event, background or not, {@code Long.MAX_VALUE} when none. */
  long earliest() {
    return members.earliest();
  }

  /** The latest model time any component (running or not) reported handling an event at. */
  long reached() {
    return members.reached(restarts.pastReached());
  }

  long stragglers() {
    return members.stragglers(restarts.pastStragglers());
  }

  long rounds() {
    return plan.rounds();
  }

  long grants() {
    return plan.grants();
  }

  long reports() {
    return reports;
  }

  List<String> zeroCycle() {
    return graph.zeroCycle();
  }
}
