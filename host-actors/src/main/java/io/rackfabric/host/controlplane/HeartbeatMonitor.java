package io.rackfabric.host.controlplane;

import java.util.Optional;

/**
 * The backup's view of the master's heartbeats, in model time only. Heartbeats carry the master's
 * model send time; one arrives at that time plus the link's latency. The master is suspected when
 * no heartbeat arrived for {@code interval x missed} of model time after the last one, and the
 * backup knows that only once the master's channel has moved past that deadline without one: each
 * message on the channel (a heartbeat, or the master's clock when its heartbeats are held) promises
 * that nothing arrives before its own arrival plus an interval, and a master known to be gone
 * (stopped, its JVM dead or cut off for good) promises that nothing ever arrives.
 *
 * <p>So a backup whose JVM, or whose master's JVM, is slowed down or stopped for a while by the
 * machine suspects nothing: the promise that would let it stops coming too. The wall clock plays
 * no part; the suspicion's model time is the deadline.
 *
 * <p>Not thread-safe: one owner (the backup's actor).
 */
public final class HeartbeatMonitor {

  /**
   * @param lastSentAt the master's model time on its last heartbeat: its last sign of life
   * @param lastArrivedAt when that heartbeat arrived here, model ns
   * @param suspectedAt model time of the suspicion: the deadline after the last arrival
   */
  public record Suspicion(long lastSentAt, long lastArrivedAt, long suspectedAt) {}

  private final long intervalNs;
  private final long suspicionAfterNs;
  private boolean watching;
  private boolean suspected;
  private long lastSentAt;
  private long lastArrivedAt;
  /** Nothing from the master arrives before this model time. */
  private long promisedUntil;
  private long heartbeats;

  /**
   * @param intervalNs the master's heartbeat interval, model ns
   * @param missed intervals without a heartbeat that count as death, more than 1
   */
  public HeartbeatMonitor(long intervalNs, double missed) {
    if (intervalNs <= 0) {
      throw new IllegalArgumentException("intervalNs=" + intervalNs + " must be positive");
    }
    if (!(missed > 1) || Double.isInfinite(missed)) {
      // At 1 the next regular heartbeat would arrive exactly at the deadline.
      throw new IllegalArgumentException("missed=" + missed + " must be more than 1");
    }
    this.intervalNs = intervalNs;
    this.suspicionAfterNs = (long) (intervalNs * missed);
  }

  /**
   * A heartbeat (or another sign of life that counts as one) sent at model time {@code sentAt},
   * arriving at {@code arrivedAt}. A heartbeat older than the last one (reordered) changes
   * nothing. After a suspicion, heartbeats are ignored until {@link #reset}: the take-over has
   * begun.
   */
  public void heartbeat(long sentAt, long arrivedAt) {
    if (suspected || (watching && sentAt < lastSentAt)) {
      return;
    }
    watching = true;
    lastSentAt = sentAt;
    lastArrivedAt = Math.max(lastArrivedAt, arrivedAt);
    promisedUntil = Math.max(promisedUntil, arrivedAt);
    heartbeats++;
  }

  /**
   * The master's clock on the heartbeat channel: a message it sent at {@code sentAt} arrived at
   * {@code arrivedAt} (a heartbeat, or one in place of a held heartbeat); its next one leaves an
   * interval later, so nothing arrives before {@code arrivedAt + interval}.
   */
  public void tick(long arrivedAt) {
    promisedUntil = Math.max(promisedUntil, arrivedAt + intervalNs);
  }

  /**
   * Everything from the master that arrives before model time {@code at} has arrived (under the
   * model-time kernel, a wake of the backup's endpoint at {@code at} says so).
   */
  public void reached(long at) {
    promisedUntil = Math.max(promisedUntil, at);
  }

  /** The master is gone for good: nothing will ever arrive from it. */
  public void masterGone() {
    promisedUntil = Long.MAX_VALUE;
  }

  /**
   * The suspicion, once, when the channel has moved past the deadline without a heartbeat;
   * empty otherwise.
   */
  public Optional<Suspicion> check() {
    if (!watching || suspected || promisedUntil <= deadline()) {
      return Optional.empty();
    }
    suspected = true;
    return Optional.of(new Suspicion(lastSentAt, lastArrivedAt, deadline()));
  }

  /** Model time at which the master counts as dead unless a heartbeat arrives first. */
  public long deadline() {
    return lastArrivedAt + suspicionAfterNs;
  }

  /** Stops watching (this host is no longer the backup, or a new master is to be watched). */
  public void reset() {
    watching = false;
    suspected = false;
    lastSentAt = 0;
    lastArrivedAt = 0;
    promisedUntil = 0;
  }

  public boolean watching() {
    return watching;
  }

  public boolean suspected() {
    return suspected;
  }

  public long heartbeats() {
    return heartbeats;
  }

  public long suspicionAfterNs() {
    return suspicionAfterNs;
  }
}
