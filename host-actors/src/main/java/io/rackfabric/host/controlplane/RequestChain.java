package io.rackfabric.host.controlplane;

import akka.actor.typed.ActorRef;
import io.rackfabric.persistence.controller.Controller.Operation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A control-plane driver's dependent requests, without the actor. A requester may label a request
 * and make a later one of its own depend on it by that label ({@link ControlPlaneClient.Issue}'s
 * {@code label} and {@code after}): the dependent request is held until the one it names was
 * answered, sent when that one was accepted, and answered "not sent" with the reason when it was
 * refused, given up, or itself not sent (a hypervisor's IOMMU mapping after a borrow the controller
 * refused). Labels are the requester's own (its requests' {@code replyTo}), so other requesters of
 * the same driver handing requests over in between change nothing, and requests that depend on
 * nothing held go at once, whoever handed them over.
 *
 * <p>A requester hears its answers in the order it handed its requests over: its request waits
 * behind an earlier one of its own that is held, and one not sent is answered only once its
 * requester's earlier requests were. A request with no requester ({@code replyTo} null) is
 * ordered behind nothing. The outcome of every labelled request is kept for the driver's life, so
 * a request may name one answered long before (a requester labels only what something may follow).
 *
 * <p>Not thread-safe: the driver's actor's own.
 */
final class RequestChain {

  /** Queues a request for sending; returns its request number. */
  interface Sender {
    long send(Operation op, boolean page);
  }

  /** Answers a request as not sent, for {@code reason}. */
  interface Refuser {
    void notSent(Operation op, String reason);
  }

  /** A label of a requester's. */
  private record Key(ActorRef<?> requester, String label) {}

  private record Held(Operation op, boolean page, String label, String after) {}

  /** How a labelled request ended. */
  private record Outcome(boolean accepted, String detail) {}

  private final Sender sender;
  private final Refuser refuser;
  /** Handed over, not yet sent nor refused, in hand-over order. */
  private final List<Held> held = new ArrayList<>();
  /** Every labelled request's outcome; null while it is sent and unanswered. */
  private final Map<Key, Outcome> labelled = new HashMap<>();
  private final Map<Long, Key> openLabels = new HashMap<>();
  /** The requester of each request sent and not yet answered. */
  private final Map<Long, ActorRef<?>> open = new HashMap<>();

  RequestChain(Sender sender, Refuser refuser) {
    this.sender = sender;
    this.refuser = refuser;
  }

  /**
   * Request {@code op} is handed over. {@code label}: a name its requester gives it, for a later
   * request to depend on (null: none); {@code after}: the label of the requester's request this
   * one depends on (null: none).
   */
  void handOver(Operation op, boolean page, String label, String after) {
    held.add(new Held(op, page, label, after));
    release();
  }

  /** Request {@code requestSeq} ended: accepted, or not ({@code detail}: refused, given up). */
  void ended(long requestSeq, boolean accepted, String detail) {
    open.remove(requestSeq);
    Key k = openLabels.remove(requestSeq);
    if (k != null) {
      labelled.put(k, new Outcome(accepted, detail));
    }
    release();
  }

  /** How many requests are held: waiting for the request they depend on, or behind their requester's. */
  int held() {
    return held.size();
  }

  /** Takes every held request that may go, in hand-over order, until none may. */
  private void release() {
    boolean took = true;
    while (took) {
      took = false;
      for (int i = 0; i < held.size(); i++) {
        if (mayGo(i)) {
          take(held.remove(i));
          took = true;
          break;
        }
      }
    }
  }

  private boolean mayGo(int index) {
    Held h = held.get(index);
    ActorRef<?> requester = h.op().replyTo();
    if (requester != null) {
      for (int i = 0; i < index; i++) {
        if (requester.equals(held.get(i).op().replyTo())) {
          return false; // behind an earlier one of its requester's
        }
      }
    }
    if (h.after() == null) {
      return true;
    }
    Key k = new Key(requester, h.after());
    boolean known = labelled.containsKey(k);
    if (known && labelled.get(k) == null || !known && heldAhead(index, k)) {
      return false; // the one it depends on is unanswered, or not sent yet
    }
    boolean sent = known && labelled.get(k).accepted();
    return sent || requester == null || !open.containsValue(requester); // not sent: after its requester's earlier ones
  }

  /** Whether a request held ahead of {@code index} has label {@code k}. */
  private boolean heldAhead(int index, Key k) {
    for (int i = 0; i < index; i++) {
      Held h = held.get(i);
      if (k.label().equals(h.label()) && Objects.equals(k.requester(), h.op().replyTo())) {
        return true;
      }
    }
    return false;
  }

  private void take(Held h) {
    ActorRef<?> requester = h.op().replyTo();
    if (h.after() != null) {
      Key k = new Key(requester, h.after());
      String reason = !labelled.containsKey(k)
          ? ControlPlaneClient.NOT_SENT + "it depends on request '" + h.after() + "', which its requester had not handed over"
          : labelled.get(k).accepted() ? null
          : ControlPlaneClient.NOT_SENT + "it depends on request '" + h.after() + "', which was not accepted ("
              + labelled.get(k).detail() + ")";
      if (reason != null) {
        if (h.label() != null) {
          labelled.put(new Key(requester, h.label()), new Outcome(false, reason));
        }
        refuser.notSent(h.op(), reason);
        return;
      }
    }
    long seq = sender.send(h.op(), h.page());
    if (requester != null) {
      open.put(seq, requester);
    }
    if (h.label() != null) {
      Key k = new Key(requester, h.label());
      labelled.put(k, null);
      openLabels.put(seq, k);
    }
  }
}
