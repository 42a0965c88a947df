package io.rackfabric.host.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.time.EventQueue;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class IntervalTimersTest {

  static final McpTiming TIMING = McpFirmwareTest.TIMING;

  final EventQueue clock = new EventQueue();
  final List<Long> expired = new ArrayList<>();
  final List<Long> calledAt = new ArrayList<>();
  boolean running = true;

  final IntervalTimers timers = new IntervalTimers(clock, TIMING, expired::add, at -> {
    if (!running) {
      return -1;
    }
    calledAt.add(at);
    return at + TIMING.lTimerNs();
  });

  @Test
  void shouldCallLTimerEveryIntervalAfterTheLastCallEndedWhenStarted() {
    timers.start(100);
    clock.runUntil(100 + 3 * (TIMING.lTimerIntervalNs() + TIMING.lTimerNs()));
    long step = TIMING.lTimerIntervalNs() + TIMING.lTimerNs();
    assertEquals(List.of(100 + TIMING.lTimerIntervalNs(), 100 + step + TIMING.lTimerIntervalNs(),
        100 + 2 * step + TIMING.lTimerIntervalNs()), calledAt);
    assertEquals(3, timers.calls());
    assertEquals(100 + 3 * step, timers.lastCallAt());
    assertEquals(List.of(), expired);
  }

  @Test
  void shouldFireTheWatchdogOnceWhenTheLoopStopsCalling() {
    timers.start(0);
    clock.runUntil(TIMING.lTimerIntervalNs() + TIMING.lTimerNs());
    running = false;
    clock.runUntil(20 * TIMING.watchdogNs());
    assertEquals(1, timers.calls());
    assertEquals(List.of(timers.lastCallAt() + TIMING.watchdogNs()), expired);
    assertFalse(timers.watchdog().armed());
  }

  @Test
  void shouldClearTheMagicWordOnlyByACall() {
    timers.start(0);
    timers.writeMagicWord();
    assertFalse(timers.magicWordCleared());
    clock.runUntil(TIMING.lTimerIntervalNs() + TIMING.lTimerNs());
    assertTrue(timers.magicWordCleared());
    running = false;
    timers.writeMagicWord();
    clock.runUntil(3 * TIMING.lTimerIntervalNs());
    assertFalse(timers.magicWordCleared());
  }

  @Test
  void shouldRunNoCallScheduledBeforeAResetWhenRestarted() {
    timers.start(0);
    timers.writeMagicWord();
    timers.stop();
    assertTrue(timers.magicWordCleared());
    timers.start(500);
    clock.runUntil(500 + TIMING.lTimerIntervalNs());
    assertEquals(List.of(500 + TIMING.lTimerIntervalNs()), calledAt, "the call due at interval went with the reset");
    timers.stop();
    clock.runUntil(20 * TIMING.watchdogNs());
    assertEquals(List.of(), expired, "a stopped watchdog never fires");
  }
}
