package io.rackfabric.host.messaging;

import java.util.PriorityQueue;
import java.util.function.BooleanSupplier;

/** Model time that only moves when a test runs it; events at equal times run in schedule order. */
final class ManualClock implements ModelClock {

  private record Event(long time, long order, Runnable task) {}

  private final PriorityQueue<Event> events = new PriorityQueue<>((a, b) ->
      a.time() != b.time() ? Long.compare(a.time(), b.time()) : Long.compare(a.order(), b.order()));
  private long now;
  private long order;

  @Override
  public long now() {
    return now;
  }

  @Override
  public void schedule(long delayNs, Runnable task) {
    if (delayNs < 0) {
      throw new IllegalArgumentException("delayNs " + delayNs + " is negative");
    }
    events.add(new Event(now + delayNs, order++, task));
  }

  /** Runs every event due at or before {@code time}, then sets the clock to {@code time}. */
  void runUntil(long time) {
    while (!events.isEmpty() && events.peek().time() <= time) {
      Event e = events.poll();
      now = e.time();
      e.task().run();
    }
    now = Math.max(now, time);
  }

  /** Runs events until {@code done} holds or the next event is past {@code limit}; returns done. */
  boolean runUntil(BooleanSupplier done, long limit) {
    while (!done.getAsBoolean() && !events.isEmpty() && events.peek().time() <= limit) {
      Event e = events.poll();
      now = e.time();
      e.task().run();
    }
    return done.getAsBoolean();
  }
}
