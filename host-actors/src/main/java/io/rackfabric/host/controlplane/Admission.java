package io.rackfabric.host.controlplane;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Which requests a management host passes to its controller. While open, at most {@code
 * maxInFlight} are with the controller at once and one more is refused (the controller's stash
 * would drop it silently); while closed (no controller serves: a take-over or a switchover is
 * under way), up to {@code queueBound} wait in arrival order and one more is refused. Not
 * thread-safe: one owner.
 *
 * @param <T> a request
 */
public final class Admission<T> {

  public enum Verdict { SEND, QUEUED, REFUSED }

  private final int maxInFlight;
  private final int queueBound;
  private final ArrayDeque<T> queue = new ArrayDeque<>();
  private boolean open;
  private int inFlight;

  public Admission(int maxInFlight, int queueBound) {
    if (maxInFlight < 1) {
      throw new IllegalArgumentException("maxInFlight=" + maxInFlight + " must be at least 1");
    }
    if (queueBound < 0) {
      throw new IllegalArgumentException("queueBound=" + queueBound + " is negative");
    }
    this.maxInFlight = maxInFlight;
    this.queueBound = queueBound;
  }

  /** SEND: the caller sends it now and calls {@link #done} when it is answered. */
  public Verdict offer(T request) {
    if (open) {
      if (inFlight < maxInFlight) {
        inFlight++;
        return Verdict.SEND;
      }
      return Verdict.REFUSED;
    }
    if (queue.size() < queueBound) {
      queue.add(request);
      return Verdict.QUEUED;
    }
    return Verdict.REFUSED;
  }

  /** A request sent earlier was answered. */
  public void done() {
    if (inFlight == 0) {
      throw new IllegalStateException("done() without a request in flight");
    }
    inFlight--;
  }

  /** Opens and returns the queued requests to send now, in arrival order (the rest stay queued). */
  public List<T> open() {
    open = true;
    return next();
  }

  /** While open: queued requests that fit under the bound now, each counted in flight. */
  public List<T> next() {
    List<T> out = new ArrayList<>();
    while (open && inFlight < maxInFlight && !queue.isEmpty()) {
      inFlight++;
      out.add(queue.poll());
    }
    return out;
  }

  /** Holds further requests in the queue; those in flight stay in flight. */
  public void close() {
    open = false;
  }

  /** Empties the queue (to answer or forward its requests elsewhere). */
  public List<T> takeQueued() {
    List<T> out = new ArrayList<>(queue);
    queue.clear();
    return out;
  }

  public boolean isOpen() {
    return open;
  }

  public int inFlight() {
    return inFlight;
  }

  public int queued() {
    return queue.size();
  }
}
