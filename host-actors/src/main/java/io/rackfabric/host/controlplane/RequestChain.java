package io.rackfabric.host.controlplane;

import io.rackfabric.persistence.controller.Controller.Operation;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Consumer;

/**
 * A control-plane driver's dependent requests, without the actor: a request handed over as
 * dependent is sent only once the request handed over just before it was accepted; when that one
 * was refused, given up, or itself not sent, the dependent one is not sent either (a hypervisor's
 * IOMMU mapping after a borrow the controller refused). While a dependent request waits for the
 * answer before it, everything handed over after it waits too, so requests still go in the order
 * they were handed over.
 *
 * <p>Not thread-safe: the driver's actor's own.
 */
final class RequestChain {

  /** Queues a request for sending; returns its request number. */
  interface Sender {
    long send(Operation op, boolean page);
  }

  private record Parked(Operation op, boolean page, boolean dependent) {}

  private final Sender sender;
  /** Answers a request as not sent: the request before it was not accepted. */
  private final Consumer<Operation> refuser;
  private final Deque<Parked> parked = new ArrayDeque<>();
  private long last;
  /** Whether the last request was accepted (or not sent); null while it is open. */
  private Boolean lastAccepted = Boolean.TRUE;

  RequestChain(Sender sender, Consumer<Operation> refuser) {
    this.sender = sender;
    this.refuser = refuser;
  }

  /** Request {@code op} is handed over; {@code dependent}: only after the one before it was accepted. */
  void handOver(Operation op, boolean page, boolean dependent) {
    if (!parked.isEmpty() || (dependent && lastAccepted == null)) {
      parked.add(new Parked(op, page, dependent));
      return;
    }
    take(new Parked(op, page, dependent));
  }

  /** Request {@code requestSeq} ended: accepted, or not (refused, given up). */
  void ended(long requestSeq, boolean accepted) {
    if (requestSeq != last) {
      return;
    }
    lastAccepted = accepted;
    while (!parked.isEmpty() && lastAccepted != null) {
      take(parked.poll());
    }
  }

  /** How many requests wait for the answer before them. */
  int parked() {
    return parked.size();
  }

  private void take(Parked p) {
    if (p.dependent() && !lastAccepted) {
      refuser.accept(p.op()); // the chain stays broken: the next dependent one is not sent either
      return;
    }
    last = sender.send(p.op(), p.page());
    lastAccepted = null;
  }
}
