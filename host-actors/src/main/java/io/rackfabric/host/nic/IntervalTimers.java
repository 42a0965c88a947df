package io.rackfabric.host.nic;

import io.rackfabric.fabric.time.ModelClock;
import java.util.function.LongConsumer;

/**
 * The card's two interval timers (FTGM section 4.2): IT0 makes the firmware loop call its timer
 * routine L_timer every {@link McpTiming#lTimerIntervalNs()}; IT1, the spare one, is the {@link
 * Watchdog} every call resets. Each call also clears the magic word the fault-tolerance daemon
 * writes to learn whether the loop still runs. A reset stops both timers; a reload starts them
 * anew, and a call scheduled before it never runs.
 */
final class IntervalTimers {

  /** The firmware loop's side of an L_timer call. */
  interface Loop {
    /**
     * L_timer is due at {@code at}: the loop runs it and returns the model time the call ended, or
     * -1 when it does not run it (a hung or unloaded loop no longer dispatches the routine).
     */
    long call(long at);
  }

  private final ModelClock clock;
  private final long intervalNs;
  private final Watchdog watchdog;
  private final Loop loop;
  private long generation;
  private boolean magicWord;
  private long calls;
  private long lastCallAt = -1;

  /** @param onWatchdog gets the model time IT1 ran out */
  IntervalTimers(ModelClock clock, McpTiming timing, LongConsumer onWatchdog, Loop loop) {
    this.clock = clock;
    this.intervalNs = timing.lTimerIntervalNs();
    this.watchdog = new Watchdog(clock, timing.watchdogNs(), onWatchdog);
    this.loop = loop;
  }

  /** The firmware was loaded at {@code at}: both timers run from then. */
  void start(long at) {
    generation++;
    watchdog.start(at);
    schedule(generation, at + intervalNs);
  }

  /** Card reset: no more L_timer calls, the watchdog's interrupt disabled, the magic word gone. */
  void stop() {
    magicWord = false;
    generation++;
    watchdog.stop();
  }

  void writeMagicWord() {
    magicWord = true;
  }

  boolean magicWordCleared() {
    return !magicWord;
  }

  Watchdog watchdog() {
    return watchdog;
  }

  long calls() {
    return calls;
  }

  /** Model time the last L_timer call ended, -1 before the first. */
  long lastCallAt() {
    return lastCallAt;
  }

  private void schedule(long gen, long at) {
    clock.schedule(Math.max(0, at - clock.now()), () -> fire(gen, at));
  }

  private void fire(long gen, long at) {
    if (gen != generation) {
      return;
    }
    long end = loop.call(at);
    if (end < 0) {
      return;
    }
    calls++;
    lastCallAt = end;
    watchdog.reset(end);
    magicWord = false;
    schedule(gen, end + intervalNs);
  }
}
