package io.rackfabric.fabric.time;

import akka.actor.typed.ActorRef;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The time keeper's books, as a plain class: who joined, what each has sent on each channel and
 * received, each one's earliest pending event, which grants are outstanding, and the decision of
 * the next round. The actor ({@link TimeKeeper}) only delivers messages.
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

  /** A grant to send. */
  /**
   * A grant to send; {@code since}: the model time the component's clock starts at (a restarted
   * component's restart time, {@code Long.MIN_VALUE} for one that never left).
   */
  record Granted(ActorRef<TimeKeeper.Grant> ref, long round, long until, long backgroundUntil, long since) {}

  private static final class Member {
    final int index;
    final ActorRef<TimeKeeper.Grant> ref;
    final int[] targets;
    long[] sentTo;
    long received;
    long next;
    /** Its earliest pending event that is not background. */
    long nextBusy;
    long stragglers;
    long now = Long.MIN_VALUE;
    boolean running = true;
    /** Stopped as dead unannounced: its last sends count toward its receivers' lenience. */
    boolean unannounced;
    boolean outstanding;
    long grantRound = -2;
    /** Whether it has received exactly what was sent to it (see {@link #recheck}). */
    boolean balanced = true;
    /** 0 for the first component of its name, then one more per restart. */
    int incarnation;
    /** The model time its clock starts at: {@code Long.MIN_VALUE}, or its restart's time. */
    long since = Long.MIN_VALUE;
    /** What was sent to its name before it was expected back: its predecessors' share of the inflow. */
    long inflowBefore;

    Member(int index, ActorRef<TimeKeeper.Grant> ref, int[] targets) {
      this.index = index;
      this.ref = ref;
      this.targets = targets;
    }

    /** Its earliest pending event as the book sees it: none before its clock's start. */
    long at(long time) {
      return Math.max(time, since);
    }
  }

  private final SyncGraph graph = new SyncGraph();
  private final Map<String, Member> members = new HashMap<>();
  /** Members by graph index (null where the graph names a component that has not joined). */
  private Member[] byIndex = new Member[0];
  private long rounds;
  private long grants;
  private long reports;
  private long nextRound;
  /** Messages sent to each component (by graph index), as reported by the senders. */
  private long[] inflow = new long[0];
  /** Messages sent to each component by senders that died unannounced, as they last reported. */
  private long[] fromDead = new long[0];
  /** Senders of each component that died unannounced: above 0, it is balanced by at-least. */
  private int[] deadSenders = new int[0];
  /** Running members that have not received what was sent to them. */
  private int unbalanced;
  private int outstanding;
  /** A run driver's hold: nothing at or after it is granted. */
  private long hold = Long.MAX_VALUE;
  /** The latest time the earliest busy event anywhere has been at: how far busy work has gone. */
  private long busyFrontier = Long.MIN_VALUE;
  /** Members that left and are expected back, with the model time each restarts at. */
  private final Map<String, Long> expectedBack = new java.util.TreeMap<>();
  /** What had been sent to each member expected back when it was: its predecessor's share. */
  private final Map<String, Long> inflowWhenExpected = new HashMap<>();
  /** Stragglers of incarnations that were replaced by a restart. */
  private long pastStragglers;
  /** The latest model time an incarnation replaced by a restart had handled an event at. */
  private long pastReached;

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
    Member before = members.get(member);
    Long back = expectedBack.get(member);
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
    Member m = new Member(index, ref, targets);
    if (before != null) {
      // Its predecessor's counts stay where they are: what it sent in its receivers' inflow, what
      // was sent to it in the inflow before this one; this one counts from nothing.
      expectedBack.remove(member);
      grow();
      m.incarnation = before.incarnation + 1;
      m.since = back;
      m.inflowBefore = inflowWhenExpected.remove(member);
      pastStragglers += before.stragglers;
      pastReached = Math.max(pastReached, before.now);
    }
    m.sentTo = sentTo.clone();
    m.received = received;
    m.next = m.at(next);
    m.nextBusy = m.at(nextBusy);
    m.stragglers = stragglers;
    m.now = now;
    members.put(member, m);
    if (byIndex.length < graph.size()) {
      byIndex = Arrays.copyOf(byIndex, Math.max(graph.size(), 2 * byIndex.length));
    }
    byIndex[index] = m;
    grow();
    for (int k = 0; k < targets.length; k++) {
      inflow[targets[k]] += m.sentTo[k];
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
    Member m = members.get(member);
    if (m == null || !m.running) {
      return;
    }
    reports++;
    if (sentTo.length == m.sentTo.length) {
      for (int k = 0; k < sentTo.length; k++) {
        long delta = sentTo[k] - m.sentTo[k];
        if (delta != 0) {
          inflow[m.targets[k]] += delta;
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
    if (inflow.length < graph.size()) {
      int n = Math.max(graph.size(), 2 * inflow.length);
      inflow = Arrays.copyOf(inflow, n);
      fromDead = Arrays.copyOf(fromDead, n);
      deadSenders = Arrays.copyOf(deadSenders, n);
    }
  }

  /** Updates whether component {@code index} has received what was sent to it. */
  private void recheck(int index) {
    grow();
    Member v = index < byIndex.length ? byIndex[index] : null;
    if (v == null || !v.running) {
      return;
    }
    long sent = inflow[index] - v.inflowBefore;
    boolean now = deadSenders[index] > 0 ? v.received >= sent - fromDead[index] : v.received == sent;
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
    Member m = members.get(member);
    if (m != null && !m.running && m.unannounced) {
      // Its death was noticed before the driver's word that it left exact (a local actor's stop
      // is watched at once): its receivers' counts are exact again.
      m.unannounced = false;
      for (int k = 0; k < m.targets.length; k++) {
        int t = m.targets[k];
        fromDead[t] -= m.sentTo[k];
        deadSenders[t]--;
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
    Member m = members.get(member);
    if (m != null && m.incarnation == incarnation) {
      stop(member, true);
    }
  }

  /** The incarnation of {@code member} that joined last (0 for the first), -1 when none did. */
  int incarnation(String member) {
    Member m = members.get(member);
    return m == null ? -1 : m.incarnation;
  }

  /**
   * A run driver restarts the node of these members (each left before) at model time {@code at}:
   * each may join again, as a new incarnation whose clock starts at {@code at}, and until all have,
   * nothing at or after {@code at} is granted. Returns why not, or null (then nothing changed).
   */
  String expectBack(Collection<String> back, long at) {
    for (String name : back) {
      Member m = members.get(name);
      if (m == null) {
        return "no component named " + name + " ever joined, so none can come back";
      }
      if (m.running) {
        return "the component named " + name + " is still running: only one that left comes back";
      }
      if (at < m.now) {
        return name + " cannot come back at " + at + " ns: it had handled an event at " + m.now + " ns";
      }
    }
    if (at < reached()) {
      return "the rack has reached " + reached() + " ns already: nothing comes back earlier, at " + at + " ns";
    }
    grow();
    for (String name : back) {
      expectedBack.put(name, at);
      // The rack is quiet before the restart: what was sent to the name so far was the
      // predecessor's; what is sent from now on (its partners' link once it trained, before it
      // joined, say) is the new component's, which counts what it receives from its start.
      inflowWhenExpected.put(name, inflow[graph.indexOf(name)]);
    }
    return null;
  }

  /**
   * The model time {@code member}'s clock starts at: its restart's, expected or joined, else
   * {@code Long.MIN_VALUE}.
   */
  long startOf(String member) {
    Long back = expectedBack.get(member);
    if (back != null) {
      return back;
    }
    Member m = members.get(member);
    return m == null ? Long.MIN_VALUE : m.since;
  }

  /** Members expected back that have not joined yet, by name. */
  List<String> awaitedBack() {
    return List.copyOf(expectedBack.keySet());
  }

  /** The hold in force: the driver's, or before the restart of members not back yet. */
  private long holdInForce() {
    long h = hold;
    for (long at : expectedBack.values()) {
      h = Math.min(h, at);
    }
    return h;
  }

  private void stop(String member, boolean unannounced) {
    Member m = members.get(member);
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
          fromDead[t] += m.sentTo[k];
          deadSenders[t]++;
          recheck(t);
        }
      }
    }
  }

  boolean joinedAll(Collection<String> expected) {
    for (String id : expected) {
      if (!members.containsKey(id)) {
        return false;
      }
    }
    return true;
  }

  int joined() {
    int n = 0;
    for (Member m : members.values()) {
      if (m.running) {
        n++;
      }
    }
    return n;
  }

  /** The grants of the next round, or none while a grant is outstanding or a message in flight. */
  List<Granted> nextRound() {
    if (anyOutstanding() || !balanced()) {
      return List.of();
    }
    long busy = earliestBusy();
    if (busy != Long.MAX_VALUE) {
      busyFrontier = Math.max(busyFrontier, busy);
    }
    long background = backgroundLimit();
    int n = graph.size();
    long[] next = new long[n];
    for (int i = 0; i < n; i++) {
      Member m = i < byIndex.length ? byIndex[i] : null;
      next[i] = m == null || !m.running ? Long.MAX_VALUE : m.next;
    }
    long[] safe = graph.safeTimes(next);
    long held = holdInForce();
    for (int i = 0; i < n; i++) {
      safe[i] = Math.min(safe[i], held);
    }
    List<Granted> out = new ArrayList<>();
    long round = nextRound;
    for (int i = 0; i < n; i++) {
      Member m = i < byIndex.length ? byIndex[i] : null;
      if (m != null && m.running && m.next < safe[i] && mayStart(m, background)) {
        out.add(grant(m, round, safe[i], background));
      }
    }
    if (out.isEmpty()) {
      Member tie = zeroLookaheadTie(background);
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
   * under a run driver's hold up to the hold (the heartbeats up to a kill), released up to the
   * busy frontier, inclusive. So a timer alone never keeps a rack running (a rack with a heartbeat
   * would otherwise never be idle, and the model would run away while a driver waits for idle),
   * and a released rack that goes idle has handled every event up to its last busy one and no
   * background event past it.
   */
  private long backgroundLimit() {
    long held = holdInForce();
    if (held != Long.MAX_VALUE) {
      return held;
    }
    return busyFrontier == Long.MIN_VALUE ? Long.MIN_VALUE : busyFrontier + 1;
  }

  /** Whether member {@code m}'s first event may be handled: a background one only before the limit. */
  private static boolean mayStart(Member m, long background) {
    return m.nextBusy == m.next || m.next < background;
  }

  private Granted grant(Member m, long round, long until, long background) {
    m.outstanding = true;
    outstanding++;
    m.grantRound = round;
    return new Granted(m.ref, round, until, background, m.since);
  }

  /**
   * When no component may go on by the rule, every one waits on a chain of lookahead 0 from an
   * event at the earliest time T (two pieces of host software that answer each other at once, a
   * switch latency set to 0). Nothing can then reach anyone before T, so one component holding an
   * event at T may handle its events at T: the one whose name sorts first, never the one whose
   * report came first. What others send it stamped T later is handled at T too, after them. Null
   * when nothing is pending before the hold.
   */
  private Member zeroLookaheadTie(long background) {
    String first = null;
    Member tie = null;
    for (Map.Entry<String, Member> e : members.entrySet()) {
      Member m = e.getValue();
      if (!m.running || m.next == Long.MAX_VALUE || m.next >= holdInForce() || !mayStart(m, background)) {
        continue;
      }
      if (tie == null || m.next < tie.next || (m.next == tie.next && e.getKey().compareTo(first) < 0)) {
        tie = m;
        first = e.getKey();
      }
    }
    return tie;
  }

  /** Who the next round waits for: members owing a report, else members owed messages; "" for none. */
  String waiting() {
    List<String> owing = new ArrayList<>();
    List<String> owed = new ArrayList<>();
    for (Map.Entry<String, Member> e : new java.util.TreeMap<>(members).entrySet()) {
      Member m = e.getValue();
      if (m.running && m.outstanding) {
        owing.add(e.getKey());
      } else if (m.running && !m.balanced) {
        owed.add(e.getKey() + " (received " + m.received + " of " + inflow[m.index] + ": " + sendersTo(m.index)
            + ")");
      }
    }
    if (!expectedBack.isEmpty()) {
      return "the restarted " + String.join(", ", expectedBack.keySet()) + " to join again";
    }
    if (!owing.isEmpty()) {
      return "reports from " + String.join(", ", owing.subList(0, Math.min(4, owing.size())))
          + (owing.size() > 4 ? " and " + (owing.size() - 4) + " more" : "");
    }
    if (!owed.isEmpty()) {
      return "messages in flight to " + String.join(", ", owed.subList(0, Math.min(4, owed.size())))
          + (owed.size() > 4 ? " and " + (owed.size() - 4) + " more" : "");
    }
    return "";
  }

  /** What each member says it sent to member {@code index}, and the stopped senders' surplus. */
  private String sendersTo(int index) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, Member> e : new java.util.TreeMap<>(members).entrySet()) {
      Member s = e.getValue();
      for (int k = 0; k < s.targets.length; k++) {
        if (s.targets[k] == index && s.sentTo[k] > 0) {
          out.add(s.sentTo[k] + " from " + e.getKey() + (s.running ? "" : " (stopped)"));
        }
      }
    }
    return String.join(", ", out);
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
   * not run now (see {@link #backgroundLimit}).
   */
  boolean idle() {
    return !anyOutstanding() && earliestBusy() == Long.MAX_VALUE && earliest() >= backgroundLimit() && balanced()
        && expectedBack.isEmpty();
  }

  /** The earliest pending event that is not background, {@code Long.MAX_VALUE} when none. */
  long earliestBusy() {
    return earliestOfRunning(m -> m.nextBusy);
  }

  /** The earliest pending event, background or not, {@code Long.MAX_VALUE} when none. */
  long earliest() {
    return earliestOfRunning(m -> m.next);
  }

  /** The least {@code time} of the running components, {@code Long.MAX_VALUE} when none runs. */
  private long earliestOfRunning(ToLongFunction<Member> time) {
    long min = Long.MAX_VALUE;
    for (Member m : members.values()) {
      if (m.running) {
        min = Math.min(min, time.applyAsLong(m));
      }
    }
    return min;
  }

  /** The latest model time any component (running or not) reported handling an event at. */
  long reached() {
    long max = Math.max(0, pastReached);
    for (Member m : members.values()) {
      max = Math.max(max, m.now);
    }
    return max;
  }

  long stragglers() {
    long s = pastStragglers;
    for (Member m : members.values()) {
      s += m.stragglers;
    }
    return s;
  }

  long rounds() {
    return rounds;
  }

  long grants() {
    return grants;
  }

  long reports() {
    return reports;
  }

  List<String> zeroCycle() {
    return graph.zeroCycle();
  }
}
