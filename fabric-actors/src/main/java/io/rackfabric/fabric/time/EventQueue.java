package io.rackfabric.fabric.time;

import java.util.PriorityQueue;
import java.util.function.BooleanSupplier;

/**
 * A discrete-event queue: every event runs at its model time, in time order (equal times in the
 * order scheduled), so a run is deterministic; long passive durations (a firmware reload) are
 * simply events further on, the clock advancing to them without any waiting. The one queue of
 * timed tasks in the project: the FTGM testbed runs on it, and host software's
 * {@code EventClock} keeps its timers in one. Not thread-safe: one owner.
 */
public final class EventQueue implements ModelClock {

  private record Event(long time, long order, Runnable task) {}

  private final PriorityQueue<Event> events = new PriorityQueue<>((a, b) ->
      a.time() != b.time() ? Long.compare(a.time(), b.time()) : Long.compare(a.order(), b.order()));
  private long now;
  private long order;
  private long executed;

  @Override
  public long now() {
    return now;
  }

  @Override
  public void schedule(long delayNs, Runnable task) {
    if (delayNs < 0) {
      throw new IllegalArgumentException("delayNs=" + delayNs + " is negative");
    }
    events.add(new Event(now + delayNs, order++, task));
  }

  /** Runs {@code task} at model time {@code time}, or now if that has passed. */
  public void at(long time, Runnable task) {
    schedule(Math.max(0, time - now), task);
  }

  /** Runs every event due at or before {@code time}, then sets the clock to it. */
  public void runUntil(long time) {
    while (!events.isEmpty() && nextTime() <= time) { // an empty queue's nextTime() may equal time
      runNext();
    }
    now = Math.max(now, time);
  }

  /** Runs events in order until {@code done} holds or the next is past {@code limit}; returns {@code done}. */
  public boolean runUntil(BooleanSupplier done, long limit) {
    while (!done.getAsBoolean() && !events.isEmpty() && nextTime() <= limit) {
      runNext();
    }
    return done.getAsBoolean();
  }

  /** The time of the earliest pending event, {@code Long.MAX_VALUE} when none. */
  public long nextTime() {
    Event e = events.peek();
    return e == null ? Long.MAX_VALUE : e.time();
  }

  /** Runs the earliest pending event, the clock set to its time; false when none was pending. */
  public boolean runNext() {
    Event e = events.poll();
    if (e == null) {
      return false;
    }
    now = e.time();
    executed++;
    e.task().run();
    return true;
  }

  public int pending() {
    return events.size();
  }

  public long executed() {
    return executed;
  }
}
