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

/**
 * The transmitting half of one link end's flow control: a queue per TLP class, the partner's
 * credits, PCIe's ordering between the classes, what the link state lets through, and the fault
 * horizon. It picks the TLP to send next; the link end puts it on the wire.
 */
final class TransmitQueues {

  private final LinkStateMachine machine;
  private final CreditLedger ledger = new CreditLedger();
  @SuppressWarnings("unchecked")
  private final ArrayDeque<Queued>[] queues = new ArrayDeque[] {
      new ArrayDeque<Queued>(), new ArrayDeque<Queued>(), new ArrayDeque<Queued>()};
  /** Classes whose head waited for credit since the last UpdateFC. */
  private final boolean[] blocked = new boolean[3];
  /** No earlier than this may a class that waited for credit start: when the credit arrived. */
  private final long[] creditReadyAt = new long[3];
  /** TLPs that would start at or after this model time wait (see {@link LinkEnd#holdFrom}). */
  private long horizon = Long.MAX_VALUE;
  private long order;

  TransmitQueues(LinkStateMachine machine) {
    this.machine = machine;
  }

  int size() {
    return queues[0].size() + queues[1].size() + queues[2].size();
  }

  /** Queued TLPs stamped before the horizon: those that will leave without a scenario's help. */
  int sizeBeforeHorizon() {
    if (horizon == Long.MAX_VALUE) {
      return size();
    }
    int n = 0;
    for (ArrayDeque<Queued> q : queues) {
      for (Queued e : q) {
        if (beforeHorizon(e.readyAt())) {
          n++;
        }
      }
    }
    return n;
  }

  void holdFrom(long modelAt) {
    horizon = modelAt;
  }

  /** Whether a TLP may leave at once, unqueued: nothing waits, and state, credit and horizon allow. */
  boolean mayBypass(Tlp tlp, long readyAt) {
    return size() == 0 && machine.mayTransmit(isManagement(tlp))
        && ledger.canSend(tlp.tlpClass(), Tlps.dataCredits(tlp)) && beforeHorizon(readyAt);
  }

  void add(Tlp tlp, long readyAt, Object token) {
    queues[tlp.tlpClass().ordinal()].add(new Queued(tlp, readyAt, token, order++));
  }

  /**
   * Takes the TLP to send next off its queue: the oldest that may go and has credit, where reads
   * and completions never pass an earlier posted request. Null when none may go.
   */
  Queued poll() {
    int posted = TlpClass.POSTED.ordinal();
    Queued pick = null;
    Queued postedHead = firstTransmittable(queues[posted]);
    for (int c = 0; c < 3; c++) {
      Queued head = c == posted ? postedHead : firstTransmittable(queues[c]);
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
    if (pick != null) {
      queues[pick.tlp().tlpClass().ordinal()].removeFirstOccurrence(pick);
    }
    return pick;
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

  /**
   * Takes a departing TLP's credit. Returns the earliest it may start: when it was ready, and for
   * a class that waited for credit not before that credit arrived.
   */
  long take(Tlp tlp, long readyAt) {
    ledger.consume(tlp.tlpClass(), Tlps.dataCredits(tlp));
    return Math.max(readyAt, creditReadyAt[tlp.tlpClass().ordinal()]);
  }

  /** The partner's training gave its buffer sizes. */
  void initialise(FcCredits limits) {
    ledger.initialise(limits);
  }

  /** An UpdateFC that arrived at model {@code arrival}: classes that waited for it may go from then. */
  void credit(FcCredits limits, long arrival) {
    ledger.update(limits);
    for (int c = 0; c < 3; c++) {
      if (blocked[c]) {
        creditReadyAt[c] = Math.max(creditReadyAt[c], arrival);
        blocked[c] = false;
      }
    }
  }

  /** The link went down: returns every queued TLP (class by class, each in queue order) and forgets the credit. */
  List<Queued> purge() {
    List<Queued> purged = new ArrayList<>(size());
    for (ArrayDeque<Queued> q : queues) {
      purged.addAll(q);
      q.clear();
    }
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
        || tlp instanceof Completion; // responses are never held back
  }
}
