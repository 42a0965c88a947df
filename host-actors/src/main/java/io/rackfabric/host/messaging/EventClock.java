package io.rackfabric.host.messaging;

import io.rackfabric.fabric.time.EventQueue;
import io.rackfabric.fabric.time.ModelClock;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Model time for host software that runs on the fabric's messages, and the timers on it.
 *
 * <p>The fabric's model time only moves with messages, so a model-time timer (a retransmission
 * timeout, a read retry) is due in one of two ways:
 *
 * <ul>
 *   <li>causally: an event arrives with a model time at or past the timer's deadline. The timer
 *       runs first, at its own deadline, then the event ({@link #advanceTo}). While traffic flows
 *       this is the only way timers run, and model time never jumps for them.
 *   <li>when idle: nothing came in and nothing went out for a wall-clock grace period, so nothing
 *       is in flight that could still move the clock. Then the clock may run on to the next
 *       deadline, as a discrete-event simulator does with an empty event queue, but no further
 *       than the wall time since the last activity allows through the time-dilation factor (a
 *       model second is {@code tdf} wall seconds). It stops at the first timer after which the
 *       owner reports progress (something was sent), and waits for another grace before the next
 *       step, so the consequences of what it sent can arrive first ({@link #runIdle}).
 * </ul>
 *
 * <p>The grace is a property of the emulator, not of the model: it only has to exceed the wall
 * time a message takes to cross the actors, and it never appears in a model-time figure. Timers at
 * equal deadlines run in the order they were scheduled. Not thread-safe: one owner (an actor).
 */
public final class EventClock implements ModelClock {

  /** The timers, in the project's one discrete-event queue: deadline order, ties as scheduled. */
  private final EventQueue timers = new EventQueue();
  private final LongSupplier wallNanos;
  private final double tdf;
  /** The model and wall time of the last activity: the idle rule measures from here. */
  private long anchorModel;
  private long anchorWall;
  private long idleRuns;
  /** The idle rule runs no timer at or after this (a fault due then has not been applied yet). */
  private long horizon = Long.MAX_VALUE;

  /**
   * @param wallNanos the wall clock, in nanoseconds (System::nanoTime, or a test's)
   * @param tdf time-dilation factor: a model second lasts this many wall seconds
   */
  public EventClock(LongSupplier wallNanos, double tdf) {
    if (!(tdf > 0)) {
      throw new IllegalArgumentException("tdf=" + tdf + " must be positive");
    }
    this.wallNanos = wallNanos;
    this.tdf = tdf;
    this.anchorWall = wallNanos.getAsLong();
  }

  @Override
  public long now() {
    return timers.now();
  }

  @Override
  public void schedule(long delayNs, Runnable task) {
    timers.schedule(delayNs, task);
  }

  /**
   * An event at model time {@code at}, handled at {@code max(now, at)}: runs every timer due by
   * then, each with the clock at its deadline (or later, if the clock already was), then sets the
   * clock to that time.
   */
  public void advanceTo(long at) {
    timers.runUntil(Math.max(timers.now(), at)); // an event from the past is handled now
    touch();
  }

  /**
   * The idle rule runs no timer due at or after {@code modelAt} until the horizon is raised
   * ({@code Long.MAX_VALUE}: no limit). A scenario holds the rack at its next fault's model time:
   * with the fabric held there, a host would otherwise count the silence as model time passing
   * and run its timers past a fault that has not happened yet. Events still run timers causally.
   */
  public void holdFrom(long modelAt) {
    horizon = modelAt;
  }

  /** Activity without a model time of its own (a command, something sent): restarts the grace. */
  public void touch() {
    anchorModel = timers.now();
    anchorWall = wallNanos.getAsLong();
  }

  /**
   * The idle rule: if nothing happened for {@code graceNanos} of wall time, runs timers in
   * deadline order, no later than the wall time since the last activity allows, until {@code
   * progressed} says one of them produced something. Returns how many timers ran.
   */
  public int runIdle(long graceNanos, BooleanSupplier progressed) {
    long wall = wallNanos.getAsLong();
    if (timers.pending() == 0 || wall - anchorWall < graceNanos) {
      return 0;
    }
    long reachable = Math.min(anchorModel + (long) ((wall - anchorWall) / tdf), horizon - 1);
    int ran = 0;
    while (timers.pending() > 0 && timers.nextTime() <= reachable) {
      timers.runNext();
      ran++;
      if (progressed.getAsBoolean()) {
        anchorModel = timers.now();
        anchorWall = wall;
        break;
      }
    }
    if (ran > 0) {
      idleRuns++;
    }
    return ran;
  }

  /** The deadline of the earliest timer waiting, {@code Long.MAX_VALUE} if none. */
  public long nextDeadline() {
    return timers.nextTime();
  }

  /** Timers waiting, stale ones included (owners ignore those when they run). */
  public int pendingTimers() {
    return timers.pending();
  }

  /** How many times the idle rule ran timers. */
  public long idleRuns() {
    return idleRuns;
  }
}
