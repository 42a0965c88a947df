package io.rackfabric.host.nic;

import io.rackfabric.fabric.time.ModelClock;
import java.util.function.LongConsumer;

/**
 * The spare interval timer (IT1) of FTGM section 4.2: set slightly above the longest gap between two
 * L_timer calls, reset by every call, and raising an interrupt when it runs out. It is card
 * hardware: a hung firmware loop does not stop it. It expires exactly {@code intervalNs} after the
 * last reset; it keeps one check pending on the clock, moved on when a reset came in between.
 */
public final class Watchdog {

  private final ModelClock clock;
  private final long intervalNs;
  private final LongConsumer onExpiry;
  private boolean armed;
  private long lastReset;
  private long generation;

  /** @param onExpiry gets the model time the timer ran out */
  public Watchdog(ModelClock clock, long intervalNs, LongConsumer onExpiry) {
    if (intervalNs < 1) {
      throw new IllegalArgumentException("intervalNs=" + intervalNs + " must be positive");
    }
    this.clock = clock;
    this.intervalNs = intervalNs;
    this.onExpiry = onExpiry;
  }

  /** Loads the timer at {@code at} and enables its interrupt. */
  public void start(long at) {
    armed = true;
    lastReset = at;
    generation++;
    check(generation, at + intervalNs);
  }

  /** L_timer reloads the counter. */
  public void reset(long at) {
    lastReset = Math.max(lastReset, at);
  }

  /** Card reset: the interrupt is disabled until {@link #start}. */
  public void stop() {
    armed = false;
    generation++;
  }

  public boolean armed() {
    return armed;
  }

  /** When the timer runs out unless reset before. */
  public long deadline() {
    return lastReset + intervalNs;
  }

  private void check(long gen, long at) {
    clock.schedule(Math.max(0, at - clock.now()), () -> {
      if (gen != generation || !armed) {
        return;
      }
      long deadline = deadline();
      if (Math.max(clock.now(), at) >= deadline) {
        armed = false;
        onExpiry.accept(deadline);
      } else {
        check(gen, deadline);
      }
    });
  }
}
