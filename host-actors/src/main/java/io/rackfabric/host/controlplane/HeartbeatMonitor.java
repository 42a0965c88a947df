package io.rackfabric.host.controlplane;

import java.util.Optional;

/**
 * The backup's view of the master's heartbeats. Heartbeats carry the master's model send time;
 * one arrives at that time plus the link's latency. The master is suspected when no heartbeat
 * arrived for {@code interval x missed} of model time after the last one: a timer whose deadline
 * is a model time, due on the wall clock once that much model time has passed through the
 * time-dilation factor since the heartbeat was received. The suspicion's model time is the
 * deadline itself, so wall-clock jitter in noticing it never enters a model-time figure.
 *
 * <p>Not thread-safe: one owner (the backup's actor). Wall times are whatever clock the owner
 * injects (System::nanoTime, or a test's).
 */
public final class HeartbeatMonitor {

  /**
   * @param lastSentAt the master's model time on its last heartbeat: its last sign of life
   * @param lastArrivedAt when that heartbeat arrived here, model ns
   * @param suspectedAt model time of the suspicion: the deadline after the last arrival
   */
  public record Suspicion(long lastSentAt, long lastArrivedAt, long suspectedAt) {}

  private final long suspicionAfterNs;
  private final double tdf;
  private final long minWallNanos;
  private boolean watching;
  private boolean suspected;
  private long lastSentAt;
  private long lastArrivedAt;
  private long lastWall;
  private long heartbeats;

  /**
   * @param intervalNs the master's heartbeat interval, model ns
   * @param missed intervals without a heartbeat that count as death, at least 1
   * @param tdf time-dilation factor: a model second lasts this many wall seconds
   */
  public HeartbeatMonitor(long intervalNs, double missed, double tdf) {
    this(intervalNs, missed, tdf, 0);
  }

  /**
   * @param minWallNanos the least wall time after the last heartbeat before a suspicion: a margin
   *     for the emulator's own delays, which never shows in the suspicion's model time
   */
  public HeartbeatMonitor(long intervalNs, double missed, double tdf, long minWallNanos) {
    if (intervalNs <= 0) {
      throw new IllegalArgumentException("intervalNs=" + intervalNs + " must be positive");
    }
    if (!(missed >= 1)) {
      throw new IllegalArgumentException("missed=" + missed + " must be at least 1");
    }
    if (!(tdf > 0)) {
      throw new IllegalArgumentException("tdf=" + tdf + " must be positive");
    }
    if (minWallNanos < 0) {
      throw new IllegalArgumentException("minWallNanos=" + minWallNanos + " is negative");
    }
    this.suspicionAfterNs = (long) (intervalNs * missed);
    this.tdf = tdf;
    this.minWallNanos = minWallNanos;
  }

  /**
   * A heartbeat (or another sign of life that counts as one) sent at model time {@code sentAt},
   * arriving at {@code arrivedAt}, received at wall time {@code wallNanos}. A heartbeat older than
   * the last one (reordered) changes nothing. After a suspicion, heartbeats are ignored until
   * {@link #reset}: the take-over has begun.
   */
  public void heartbeat(long sentAt, long arrivedAt, long wallNanos) {
    if (suspected || (watching && sentAt < lastSentAt)) {
      return;
    }
    watching = true;
    lastSentAt = sentAt;
    lastArrivedAt = Math.max(lastArrivedAt, arrivedAt);
    lastWall = wallNanos;
    heartbeats++;
  }

  /** The suspicion, once, if its deadline has passed on the wall clock; empty otherwise. */
  public Optional<Suspicion> check(long wallNanos) {
    if (!watching || suspected || wallNanos < wallDeadline()) {
      return Optional.empty();
    }
    suspected = true;
    return Optional.of(new Suspicion(lastSentAt, lastArrivedAt, lastArrivedAt + suspicionAfterNs));
  }

  /** Wall nanoseconds from {@code wallNanos} until a check can suspect, at least 0. */
  public long wallUntilDeadline(long wallNanos) {
    return Math.max(0, wallDeadline() - wallNanos);
  }

  private long wallDeadline() {
    return lastWall + Math.max((long) (suspicionAfterNs * tdf), minWallNanos);
  }

  /** Stops watching (this host is no longer the backup, or a new master is to be watched). */
  public void reset() {
    watching = false;
    suspected = false;
    lastSentAt = 0;
    lastArrivedAt = 0;
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
