package io.rackfabric.host.messaging;

/**
 * Model time, in nanoseconds, and timers on it. Injected so that tests step the protocol
 * deterministically and the fabric's actors can later drive it from their own scheduler.
 */
public interface ModelClock {

  long now();

  /** Runs {@code task} once, {@code delayNs} from now. Timers are not cancelled; owners ignore stale ones. */
  void schedule(long delayNs, Runnable task);
}
