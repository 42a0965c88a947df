package io.rackfabric.fabric.link;

import io.rackfabric.fabric.credit.CreditLedger;
import io.rackfabric.fabric.credit.FcCredits;
import io.rackfabric.fabric.link.LinkEnd.Queued;
import io.rackfabric.fabric.tlp.Completion;
import io.rackfabric.fabric.tlp.ConfigRead;
import io.rackfabric.fabric.tlp.ConfigWrite;
import io.rackfabric.fabric.tlp.ErrorMessage;
import io.rackfabric.fabric.tlp.Tlp;
import io.rackfabric.fabric.tlp.TlpClass;
import io.rackfabric.fabric.tlp.Tlps;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The transmitting side of one link end: a queue per source (the ingress port a TLP came in
 * through, or the end's own) and TLP class; the partner's credits (credit-based flow control),
 * PCIe's ordering between the classes of one source, what the link state lets through, the fault
 * horizon and, among the sources that have a TLP that may go, round-robin ({@link EgressArbiter})
 * decide which TLP goes next; it then takes its slot on the wire in model time
 * ({@link WireCalendar}) and departs through the end ({@link Departures}).
 */
final class Transmitter {

  /** Where a TLP goes once it has its credit and its slot on the wire. */
  @FunctionalInterface
  interface Departures {
    /** {@code tlp}, queued with {@code token}, starts on the wire at model {@code start}. */
    void departed(Tlp tlp, Object token, long start);
  }

  private final LinkParameters params;
  private final LinkStateMachine machine;
  /** The egress wire's schedule (see {@link WireCalendar} for why not a FIFO). */
  private final WireCalendar wire;
  /** Whether transmission must stop for now (a full replay buffer: an Ack will pump again). */
  private final BooleanSupplier stopped;
  private final Departures departures;
  private final CreditLedger ledger = new CreditLedger();
  /** Per source slot ({@link EgressArbiter#slot}) and class, made on first use. */
  @SuppressWarnings("unchecked")
  private final ArrayDeque<Queued>[][] queues = new ArrayDeque[EgressArbiter.SOURCES][];
  /** Per source slot, the TLP it would send next in this poll (null: none may go). */
  private final Queued[] heads = new Queued[EgressArbiter.SOURCES];
  private final EgressArbiter arbiter = new EgressArbiter();
  private int queued;
  /** Classes whose head waited for credit since the last UpdateFC. */
  private final boolean[] blocked = new boolean[3];
  /** No earlier than this may a class that waited for credit start: when the credit arrived. */
  private final long[] creditReadyAt = new long[3];
  /** TLPs that would start at or after this model time wait (see {@link LinkEnd#holdFrom}). */
  private long horizon = Long.MAX_VALUE;
  private long order;
  /** The model time of the event the owner is handling: nothing can start on the wire before it. */
  private long eventAt = Long.MIN_VALUE;

  Transmitter(LinkParameters params, LinkStateMachine machine, WireCalendar wire, BooleanSupplier stopped,
      Departures departures) {
    this.params = params;
    this.machine = machine;
    this.wire = wire;
    this.stopped = stopped;
    this.departures = departures;
  }

  int size() {
    return queued;
  }

  /** Queued TLPs stamped before the horizon: those that will leave without a scenario's help. */
  int sizeBeforeHorizon() {
    if (horizon == Long.MAX_VALUE) {
      return size();
    }
    int n = 0;
    for (ArrayDeque<Queued>[] source : queues) {
      if (source == null) {
        continue;
      }
      for (ArrayDeque<Queued> q : source) {
        for (Queued e : q) {
          if (beforeHorizon(e.readyAt())) {
            n++;
          }
        }
      }
    }
    return n;
  }

  /** See {@link LinkEnd#holdFrom}. */
  void holdFrom(long modelAt) {
    horizon = modelAt;
    pump();
  }

  /** See {@link LinkEnd#beginEvent}; {@code Long.MIN_VALUE} when the event is over. */
  void floorAt(long time) {
    eventAt = time;
  }

  /** The floor {@link #floorAt} set, {@code Long.MIN_VALUE} outside an event. */
  long floor() {
    return eventAt;
  }

  /**
   * Queues a TLP, or sends it at once when nothing waits and state, credit and horizon allow.
   * Returns false when the link is down and nothing is taken. An {@code Integer} token is the
   * TLP's source for the arbitration (its ingress port, or {@link EgressArbiter#OWN}); any other
   * token counts as the end's own.
   */
  boolean offer(Tlp tlp, long readyAt, Object token) {
    if (!machine.enabled() || machine.state() == DataLinkState.DL_INACTIVE) {
      return false;
    }
    if (!stopped.getAsBoolean() && size() == 0 && machine.mayTransmit(isManagement(tlp))
        && ledger.canSend(tlp.tlpClass(), Tlps.dataCredits(tlp)) && beforeHorizon(readyAt)) {
      send(tlp, readyAt, token);
      return true;
    }
    int slot = EgressArbiter.slot(token instanceof Integer source ? source : EgressArbiter.OWN);
    if (queues[slot] == null) {
      queues[slot] = newClassQueues();
    }
    queues[slot][tlp.tlpClass().ordinal()].add(new Queued(tlp, readyAt, token, order++));
    queued++;
    pump();
    return true;
  }

  /** Sends what may go now, oldest first, until nothing may. */
  void pump() {
    if (!machine.isUp()) {
      return;
    }
    while (!stopped.getAsBoolean()) {
      Queued pick = poll();
      if (pick == null) {
        return;
      }
      send(pick.tlp(), pick.readyAt(), pick.token());
    }
  }

  /** Puts a TLP on the wire: takes its credit and its slot on the wire (model time). */
  private void send(Tlp tlp, long readyAt, Object token) {
    int c = tlp.tlpClass().ordinal();
    ledger.consume(tlp.tlpClass(), Tlps.dataCredits(tlp));
    long start = wire.reserve(
        Math.max(Math.max(readyAt, creditReadyAt[c]), eventAt), params.serializationNs(Tlps.wireBytes(tlp)));
    departures.departed(tlp, token, start);
  }

  /**
   * Takes the TLP to send next off its queue: each source offers its oldest TLP that may go and
   * has credit, and the sources take turns (round-robin). Null when none may go.
   */
  private Queued poll() {
    if (queued == 0) {
      return null;
    }
    for (int s = 0; s < EgressArbiter.SOURCES; s++) {
      heads[s] = queues[s] == null ? null : head(queues[s]);
    }
    int slot = arbiter.grant(s -> heads[s] != null);
    if (slot < 0) {
      return null;
    }
    Queued pick = heads[slot];
    queues[slot][pick.tlp().tlpClass().ordinal()].removeFirstOccurrence(pick);
    queued--;
    return pick;
  }

  /**
   * One source's TLP to send next: the oldest of its queues that may go and has credit, where
   * reads and completions never pass an earlier posted request of the same source. Null when
   * none may go.
   */
  private Queued head(ArrayDeque<Queued>[] source) {
    int posted = TlpClass.POSTED.ordinal();
    Queued pick = null;
    Queued postedHead = firstTransmittable(source[posted]);
    for (int c = 0; c < 3; c++) {
      Queued head = c == posted ? postedHead : firstTransmittable(source[c]);
      if (head == null) {
        continue;
      }
      if (!ledger.canSend(head.tlp().tlpClass(), Tlps.dataCredits(head.tlp()))) {
        blocked[c] = true;
        continue;
      }
      if (c != posted && postedHead != null && postedHead.order() < head.order()) {
        continue; // PCIe ordering: reads and completions never pass an earlier posted request
      }
      if (pick == null || head.order() < pick.order()) {
        pick = head;
      }
    }
    return pick;
  }

  @SuppressWarnings("unchecked")
  private static ArrayDeque<Queued>[] newClassQueues() {
    return new ArrayDeque[] {new ArrayDeque<Queued>(), new ArrayDeque<Queued>(), new ArrayDeque<Queued>()};
  }

  /**
   * The oldest TLP of a class that the link state and the horizon let through: the head when
   * active and nothing is held; in DL_PROTECTED the oldest configuration request, completion or
   * message, which must not wait behind memory requests that are held until activation.
   */
  private Queued firstTransmittable(ArrayDeque<Queued> queue) {
    boolean active = machine.state() == DataLinkState.DL_ACTIVE;
    if (active && horizon == Long.MAX_VALUE) {
      return queue.peekFirst(); // everything may go: no need to walk the queue
    }
    for (Queued q : queue) {
      // A TLP held at the horizon is stamped after every one that passes it here, so passing it
      // keeps model order.
      if (beforeHorizon(q.readyAt()) && (active || machine.mayTransmit(isManagement(q.tlp())))) {
        return q;
      }
    }
    return null;
  }

  /** The partner's training gave its buffer sizes. */
  void initialise(FcCredits limits) {
    ledger.initialise(limits);
  }

  /**
   * An UpdateFC that arrived at model {@code arrival}: classes that waited for it may go, not
   * before then.
   */
  void credit(FcCredits limits, long arrival) {
    ledger.update(limits);
    for (int c = 0; c < 3; c++) {
      if (blocked[c]) {
        creditReadyAt[c] = Math.max(creditReadyAt[c], arrival);
        blocked[c] = false;
      }
    }
    pump();
  }

  /**
   * The link went down: returns every queued TLP (class by class, each in the order it was
   * queued) and forgets the credit.
   */
  List<Queued> purge() {
    List<Queued> purged = new ArrayList<>(size());
    for (int c = 0; c < 3; c++) {
      List<Queued> ofClass = new ArrayList<>();
      for (ArrayDeque<Queued>[] source : queues) {
        if (source != null) {
          ofClass.addAll(source[c]);
          source[c].clear();
        }
      }
      ofClass.sort(java.util.Comparator.comparingLong(Queued::order));
      purged.addAll(ofClass);
    }
    queued = 0;
    ledger.reset();
    for (int c = 0; c < 3; c++) {
      blocked[c] = false;
      creditReadyAt[c] = 0;
    }
    return purged;
  }

  /**
   * Whether the TLP is stamped before the horizon. Its stamp at this hop, not where credit and the
   * wire's schedule would put it: a generator's last requests before a fault must still leave the
   * source, or its job would never finish; a few nanoseconds of queueing past the horizon do not
   * move a clock far.
   */
  private boolean beforeHorizon(long readyAt) {
    return readyAt < horizon;
  }

  private static boolean isManagement(Tlp tlp) {
    return tlp instanceof ConfigRead
        || tlp instanceof ConfigWrite
        || tlp instanceof ErrorMessage
        || tlp instanceof Completion // responses are never held back
        || tlp instanceof io.rackfabric.fabric.tlp.FabricMessage;
  }
}
