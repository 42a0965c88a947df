package io.rackfabric.host.ftgm;

import io.rackfabric.host.messaging.ModelClock;
import java.util.PriorityQueue;

/**
 * Model time for a testbed of message interfaces and their hosts: a discrete-event queue. Every
 * event runs at its model time, in time order (equal times in the order scheduled), so a run is
 * deterministic; long passive durations (a firmware reload) are simply events further on, the
 * clock advancing to them without any waiting. Not thread-safe: one owner.
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
    while (!events.isEmpty() && events.peek().time() <= time) {
      Event e = events.poll();
      now = e.time();
      executed++;
      e.task().run();
    }
    now = Math.max(now, time);
  }

  public int pending() {
    return events.size();
  }

  public long executed() {
    return executed;
  }
}
