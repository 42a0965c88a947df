package io.rackfabric.host.controlplane;

import io.rackfabric.persistence.controller.Controller.Operation;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Controller.Status;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

/**
 * A control-plane client's bookkeeping, without actors or timers: requests are numbered from 1
 * and sent one at a time (the controller applies a client's request at most once by remembering
 * the last number it applied, which is only sound when a later request is never sent before an
 * earlier one is answered); each attempt goes to one of the management hosts, and a host that
 * says NOT_MASTER, does not answer, or could not replicate makes the next attempt go to the other.
 * A late answer to an earlier attempt counts if the request is still open: it is the same request.
 */
final class RequestQueue {

  /** A request to send now: {@code host} indexes the hosts. */
  record Attempt(long requestSeq, Operation operation, int host, int attempt) {}

  /** What to do after an answer or a timeout. */
  enum Next {
    /** The request is answered: report it and send the next. */
    DONE,
    /** Try again (at another host) after the retry delay. */
    RETRY,
    /** Try again at once: the attempt timed out, which took long enough. */
    RETRY_NOW,
    /** An answer to a request already answered, or a stale timeout: nothing to do. */
    IGNORE
  }

  /**
   * One request while open; {@code issuedAt} is when it was handed to the client, on the driver's
   * clock (model time under the kernel, else the wall clock): what its give-up is measured from.
   */
  record Open(long requestSeq, Operation operation, long issuedAt) {}

  private final int hosts;
  private final long giveUpNs;
  private final Deque<Open> waiting = new ArrayDeque<>();
  private Open current;
  private int attempts;
  private int target;
  private long nextSeq = 1;

  RequestQueue(int hosts, long giveUpNs) {
    if (hosts < 1) {
      throw new IllegalArgumentException("hosts=" + hosts + " must be at least 1");
    }
    this.hosts = hosts;
    this.giveUpNs = giveUpNs;
  }

  /** Queues {@code op}; returns its request number. */
  long offer(Operation op, long clockNs) {
    long seq = nextSeq++;
    waiting.add(new Open(seq, op, clockNs));
    return seq;
  }

  /** The first attempt of the next request, when none is open. */
  Optional<Attempt> next() {
    if (current != null || waiting.isEmpty()) {
      return Optional.empty();
    }
    current = waiting.poll();
    attempts = 0;
    return Optional.of(attempt());
  }

  /** Another attempt of the open request (after {@link Next#RETRY} or {@link Next#RETRY_NOW}). */
  Optional<Attempt> retry() {
    return current == null ? Optional.empty() : Optional.of(attempt());
  }

  private Attempt attempt() {
    attempts++;
    return new Attempt(current.requestSeq(), current.operation(), target, attempts);
  }

  Optional<Open> current() {
    return Optional.ofNullable(current);
  }

  int attempts() {
    return attempts;
  }

  int queued() {
    return waiting.size();
  }

  /** An answer from host {@code host} to request {@code requestSeq}. */
  Next answered(long requestSeq, int host, OperationResult result) {
    if (current == null || current.requestSeq() != requestSeq) {
      return Next.IGNORE;
    }
    Status s = result.status();
    if (s == Status.NOT_MASTER || s == Status.NOT_REPLICATED || s == Status.OVERLOADED) {
      if (s != Status.OVERLOADED) {
        target = (host + 1) % hosts; // the master is elsewhere, or is about to be
      }
      return Next.RETRY;
    }
    current = null; // ACCEPTED (perhaps "already applied") or REJECTED: the controller's word
    return Next.DONE;
  }

  /** Attempt {@code attempt} of {@code requestSeq} at {@code host} got no answer in time. */
  Next timedOut(long requestSeq, int host, int attempt) {
    if (current == null || current.requestSeq() != requestSeq || attempt != attempts) {
      return Next.IGNORE;
    }
    target = (host + 1) % hosts;
    return Next.RETRY_NOW;
  }

  /** True when the open request has waited longer than the give-up time. */
  boolean expired(long clockNs) {
    return current != null && clockNs - current.issuedAt() > giveUpNs;
  }

  /** Drops the open request (given up); the next may go. */
  Open abandon() {
    Open o = current;
    current = null;
    return o;
  }
}
