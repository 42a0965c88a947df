package io.rackfabric.fabric.time;

/**
 * Model time, in nanoseconds, and timers on it, as host software and firmware see it. Injected so
 * that tests step a protocol deterministically ({@link EventQueue}) and actors drive it from
 * their own events.
 */
public interface ModelClock {

  long now();

  /** Runs {@code task} once, {@code delayNs} from now. Timers are not cancelled; owners ignore stale ones. */
  void schedule(long delayNs, Runnable task);
}
