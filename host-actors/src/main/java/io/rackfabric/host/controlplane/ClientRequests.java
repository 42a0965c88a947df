package io.rackfabric.host.controlplane;

import akka.actor.typed.ActorRef;
import io.rackfabric.host.controlplane.ControlPlaneClient.Issue;
import io.rackfabric.host.controlplane.ControlPlaneClient.PagesDone;
import io.rackfabric.host.controlplane.ControlPlaneClient.RequestRecord;
import io.rackfabric.persistence.controller.Controller.Operation;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Controller.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * The requests a host's control-plane driver ({@link ControlPlaneClient}) sends, without the
 * actor: held until it can send, then handed over in order through its {@link RequestChain}
 * (dependent requests), numbered and sent by its {@link RequestAttempts}, each one's record kept in
 * its {@link RequestLedger}; an answered one changes the host's root first ({@link BorrowerRoot}),
 * then its requester hears the answer and its page plan ({@link PagePlanRun}) its record.
 *
 * <p>Not thread-safe: the driver's actor's own.
 */
final class ClientRequests {

  private record Held(Operation operation, boolean page, String label, String after) {}

  private final String name;
  private final BorrowerRoot root;
  private final LongSupplier wallNanos;
  private final Logger log;
  private final RequestLedger ledger = new RequestLedger();
  private final PagePlanRun pages = new PagePlanRun();
  private final RequestChain chain = new RequestChain(this::enqueue, this::notSent);
  private final List<Held> held = new ArrayList<>(); // until the hosts are known (and the kernel runs)
  private final List<ActorRef<PagesDone>> readyWaiters = new ArrayList<>();
  private ClientTransport transport;
  private RequestAttempts attempts;

  /** @param wallNanos the wall clock a request's latency is measured on */
  ClientRequests(String name, BorrowerRoot root, LongSupplier wallNanos, Logger log) {
    this.name = name;
    this.root = root;
    this.wallNanos = wallNanos;
    this.log = log;
  }

  /**
   * The driver can send now, through {@code transport} to {@code hosts} hosts: what was held is
   * handed over, in model time ({@code modelTime} not null) each as an issue at its own time.
   */
  void begin(ClientTransport transport, ModelTimeTransport modelTime, ClientSettings client, int hosts) {
    this.transport = transport;
    attempts = new RequestAttempts(name, client, transport, hosts, log, this::ended);
    if (modelTime != null) {
      held.forEach(h -> modelTime.issueAt(new Issue(h.operation(), h.label(), h.after()))); // each enters at its time
    } else {
      held.forEach(h -> chain.handOver(h.operation(), h.page(), h.label(), h.after()));
    }
    held.clear();
  }

  /** {@code replyTo} hears the records so far once the driver can send: now, or after {@link #tellReady}. */
  void awaitReady(ActorRef<PagesDone> replyTo) {
    if (attempts != null) {
      replyTo.tell(new PagesDone(name, ledger.records()));
    } else {
      readyWaiters.add(replyTo);
    }
  }

  /** The driver has begun and sent what it could: who waited for it hears the records so far. */
  void tellReady() {
    readyWaiters.forEach(w -> w.tell(new PagesDone(name, ledger.records())));
    readyWaiters.clear();
  }

  /** The attempts of the requests sent; null until {@link #begin}. */
  RequestAttempts attempts() {
    return attempts;
  }

  /** The page plan's run. */
  PagePlanRun pages() {
    return pages;
  }

  /** Every request's record so far. */
  List<RequestRecord> records() {
    return ledger.records();
  }

  /** Hands {@code op} over (a page plan's request when {@code page}), or holds it until {@link #begin}. */
  void submit(Operation op, boolean page, String label, String after) {
    if (attempts == null) {
      held.add(new Held(op, page, label, after));
    } else {
      chain.handOver(op, page, label, after);
      attempts.sendNext();
    }
  }

  private long enqueue(Operation op, boolean page) {
    long seq = attempts.offer(op);
    ledger.issued(seq, op.replyTo(), wallNanos.getAsLong());
    if (page) {
      pages.track(seq);
    }
    return seq;
  }

  /** A dependent request whose request it depends on was not accepted: its requester hears it was not sent. */
  private void notSent(Operation op, String reason) {
    log.info("Client [{}]: {} {}", name, op.getClass().getSimpleName(), reason);
    if (op.replyTo() != null) {
      op.replyTo().tell(new OperationResult(Status.REJECTED, 0, transport.clock(), reason, List.of()));
    }
  }

  /**
   * Keeps the request's record, tells its requester once, and closes the page plan when full. An
   * accepted borrow or return is hot-plugged at the host's root first: in model time inside the
   * call that brought the answer, so the windows change at the answer's model time.
   */
  private void ended(RequestQueue.Open open, OperationResult result, int attemptCount, String detail) {
    root.answered(open.operation(), result);
    RequestRecord r = ledger.closed(open, result, attemptCount, detail, wallNanos.getAsLong());
    chain.ended(open.requestSeq(), result != null && result.accepted(), // the next is sent after this returns
        result == null ? detail : result.status() + (result.detail() == null ? "" : ": " + result.detail()));
    PagePlanRun.Finished finished = pages.recorded(r);
    if (finished != null) {
      finished.replyTo().tell(new PagesDone(name, finished.records()));
    }
  }
}
