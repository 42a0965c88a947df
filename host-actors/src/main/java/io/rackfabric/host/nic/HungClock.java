package io.rackfabric.host.nic;

import java.time.Duration;

/**
 * The card's hardware clock while its firmware loop is hung (FTGM section 4.2): nothing else comes
 * in (the senders wait for write-backs), yet the spare watchdog must still run out. So once the
 * hang has taken effect the clock runs on by itself until the watchdog raises its interrupt or the
 * daemon resets the card. Under the model-time kernel it moves in model-time wakes of the card's
 * endpoint, each exactly at the card's next timer, so the interrupt leaves at its own model time;
 * free-running it moves one L_timer interval per wall tick (paced by the time-dilation factor).
 *
 * <p>Not thread-safe: the NIC actor's own.
 */
final class HungClock {

  /** How the clock is driven: the NIC actor's timers and its endpoint's wakes. */
  interface Ticks {
    /** Under the kernel: a wake of the card's endpoint at model time {@code at}, handed back to {@link #woke}. */
    void wakeAt(long at, long token);

    /** Free-running: {@link #wallTick} every {@code every} of wall time, until {@link #stopWallTicks}. */
    void startWallTicks(Duration every);

    void stopWallTicks();
  }

  /** The token of the wake at a hang's model time. */
  private static final long HANG_TAKES_EFFECT = 0;

  private final NicFirmware firmware;
  private final McpTiming timing;
  private final double tdf;
  private final Ticks ticks;
  private boolean underKernel;
  private boolean ticking;
  /**
   * The spare watchdog has raised its interrupt for this hang: the card's clock no longer matters
   * until the daemon resets it, so nothing (a late DMA completion) starts it ticking again, and
   * one hang is detected once whatever the order the daemon's commands come in.
   */
  private boolean watchdogFired;
  /** Tells wakes of an earlier stall from the current one's (from 1 up). */
  private long stall;

  /**
   * @param timing L_timer's interval (one wall tick's worth of model time); null for a card
   *     without FTGM's watchdog, whose clock never runs on by itself
   * @param tdf one model second lasts this many wall seconds (free-running ticks)
   */
  HungClock(NicFirmware firmware, McpTiming timing, double tdf, Ticks ticks) {
    this.firmware = firmware;
    this.timing = timing;
    this.tdf = tdf;
    this.ticks = ticks;
  }

  boolean hasWatchdog() {
    return timing != null;
  }

  /** Whether the card's endpoint runs under the model-time kernel (told on attaching, and on joining). */
  void underKernel(boolean underKernel) {
    this.underKernel = underKernel;
  }

  /**
   * The hang fault: the loop stops at {@code at}, or when its clock has passed it. Under the kernel
   * the hang takes effect at its model time, in order with everything else the card does.
   */
  long hang(long at) {
    long hungAt = firmware.hang(at);
    if (underKernel) {
      ticks.wakeAt(hungAt, HANG_TAKES_EFFECT);
    } else {
      whenStalled();
    }
    return hungAt;
  }

  /**
   * Once the hang has taken effect in model time (the loop reached it, or something due after it
   * came in), the clock runs on. Not before: the daemon's reaction must not overtake what the loop
   * serves before the hang.
   */
  void whenStalled() {
    if (timing == null || ticking || watchdogFired || !firmware.stalled()) {
      return;
    }
    ticking = true;
    firmware.advanceClock(firmware.hungAt());
    if (underKernel) {
      stall++;
      wakeAtNextTimer();
      return;
    }
    ticks.startWallTicks(Duration.ofNanos(Math.max(1, (long) (timing.lTimerIntervalNs() * tdf))));
  }

  /** A wake asked for by {@link Ticks#wakeAt}, at its model time {@code at}. */
  void woke(long at, long token) {
    if (token == HANG_TAKES_EFFECT) {
      if (!ticking && !watchdogFired && firmware.hung() && firmware.loaded()) {
        firmware.advanceClock(at); // what the loop served before the hang
        ticking = true;
        stall++;
        wakeAtNextTimer();
      }
      return;
    }
    if (!ticking || token != stall) {
      return; // a wake of an earlier stall
    }
    if (!firmware.hung() || !firmware.loaded()) {
      stop();
      return;
    }
    firmware.advanceClock(at);
    if (ticking) { // the watchdog's interrupt stops the ticks
      wakeAtNextTimer();
    }
  }

  /** Free-running: one wall tick, one L_timer interval of the card's clock. */
  void wallTick() {
    if (!firmware.hung() || !firmware.loaded()) {
      stop();
      return;
    }
    firmware.advanceClock(firmware.clockNow() + timing.lTimerIntervalNs());
  }

  /** The watchdog ran out: the clock stops until the card is reset. */
  void interrupted() {
    stop();
    watchdogFired = true;
  }

  /** The daemon reset the card: a later hang is detected afresh. */
  void reset() {
    stop();
    watchdogFired = false;
  }

  private void stop() {
    ticking = false;
    ticks.stopWallTicks();
  }

  /** Exactly at the card's next timer (the watchdog's expiry), never behind the endpoint's clock. */
  private void wakeAtNextTimer() {
    long next = firmware.nextTimerAt();
    if (next != Long.MAX_VALUE) {
      ticks.wakeAt(next, stall);
    }
  }
}
