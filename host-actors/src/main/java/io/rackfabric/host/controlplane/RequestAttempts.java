package io.rackfabric.host.controlplane;

import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.Operation;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import org.slf4j.Logger;

/**
 * A control-plane driver's requests from queued to ended, without the actor: each attempt of the
 * open request goes through the transport; an answer ends it or makes the next attempt go after
 * the retry delay, silence makes it go to the other host at once, and a request open longer than
 * the give-up time ends unanswered. Either way the next request goes then. The order and the
 * choice of host are {@link RequestQueue}'s.
 *
 * <p>Not thread-safe: the driver's actor's own.
 */
final class RequestAttempts {

  /** Where a request's end goes: answered with {@code result}, or given up when that is null. */
  interface Ended {
    void ended(RequestQueue.Open open, OperationResult result, int attempts, String detail);
  }

  private final String name;
  private final ClientSettings client;
  private final ClientTransport transport;
  private final RequestQueue queue;
  private final Logger log;
  private final Ended ended;

  /** @param hosts how many management hosts the transport reaches */
  RequestAttempts(String name, ClientSettings client, ClientTransport transport, int hosts, Logger log, Ended ended) {
    this.name = name;
    this.client = client;
    this.transport = transport;
    this.queue = new RequestQueue(hosts, client.giveUp().toNanos());
    this.log = log;
    this.ended = ended;
  }

  /** Queues {@code op} at the transport's clock; returns its request number. */
  long offer(Operation op) {
    return queue.offer(op, transport.clock());
  }

  /** Sends the next request's first attempt, unless one is open. */
  void sendNext() {
    queue.next().ifPresent(this::send);
  }

  private void send(RequestQueue.Attempt a) {
    transport.send(a, new Controller.Request(name, a.requestSeq(), a.operation()));
  }

  /** Host {@code host} answered request {@code requestSeq}. */
  void answered(long requestSeq, int host, OperationResult result) {
    RequestQueue.Open open = queue.current().orElse(null);
    int attempts = queue.attempts();
    switch (queue.answered(requestSeq, host, result)) {
      case DONE -> {
        transport.answered();
        ended.ended(open, result, attempts, result.detail());
        sendNext();
      }
      case RETRY -> transport.retryAfterDelay();
      default -> { }
    }
  }

  /** Attempt {@code attempt} of request {@code requestSeq} at {@code host} had no answer in time. */
  void timedOut(long requestSeq, int host, int attempt) {
    if (queue.timedOut(requestSeq, host, attempt) == RequestQueue.Next.RETRY_NOW) {
      log.debug("Client [{}]: request {} unanswered by host {}; trying the other", name, requestSeq, host);
      retryOrGiveUp();
    }
  }

  /** Sends the open request's next attempt, or gives it up when it is open longer than the give-up time. */
  void retryOrGiveUp() {
    if (queue.expired(transport.clock())) {
      RequestQueue.Open gone = queue.abandon();
      int attempts = queue.attempts();
      log.error("Client [{}]: request {} unanswered after {} attempts in {}; given up", name,
          gone.requestSeq(), attempts, client.giveUp());
      ended.ended(gone, null, attempts, "given up after " + client.giveUp() + " without an answer");
      sendNext();
      return;
    }
    queue.retry().ifPresent(this::send);
  }
}
