package io.rackfabric.host.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.time.EventQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The hung card's clock on its own: model-time wakes under the kernel, wall ticks free-running. */
class HungClockTest {

  static final McpTiming TIMING = NicFirmwareHangTest.TIMING; // L_timer every 790 us, watchdog 810 us

  record Wake(long at, long token) {}

  /** The actor's side: the wakes asked for, the wall ticks, and the interrupt handed back. */
  final class Card extends NicFirmwareTest.FakeHardware implements HungClock.Ticks {
    /** Every wake asked for, and how many of them were answered. */
    final List<Wake> wakes = new ArrayList<>();
    int answered;
    final List<Long> interrupts = new ArrayList<>();
    Duration wallTicks;

    @Override
    public void interrupt(long at) {
      interrupts.add(at);
      clock.interrupted();
    }

    @Override
    public void wakeAt(long at, long token) {
      wakes.add(new Wake(at, token));
    }

    @Override
    public void startWallTicks(Duration every) {
      wallTicks = every;
    }

    @Override
    public void stopWallTicks() {
      wallTicks = null;
    }
  }

  final Card card = new Card();
  final NicFirmware firmware = new NicFirmware(NicFirmwareHangTest.MAP, NicFirmwareHangTest.MH,
      NicFirmwareHangTest.SETTINGS, card, TIMING, new EventQueue());
  final HungClock clock = new HungClock(firmware, TIMING, 2.0, card);

  HungClockTest() {
    firmware.boot(0);
  }

  /** Answers every wake at its model time, in order, until none is left to answer. */
  void runWakes() {
    for (int i = 0; i < 10 && card.answered < card.wakes.size(); i++) {
      Wake w = card.wakes.get(card.answered++);
      clock.woke(w.at(), w.token());
    }
  }

  @Test
  void shouldWakeAtTheHangThenAtTheWatchdogsExpiryAndStopAtItsInterruptWhenUnderTheKernel() {
    clock.underKernel(true);

    assertEquals(1_000_000, clock.hang(1_000_000));
    runWakes();

    // the last L_timer ran at 790 us; the hung loop skips the one at 1,580 us and the watchdog
    // runs out at 1,600 us: each a wake at the card's next timer, none after the interrupt
    assertEquals(List.of(new Wake(1_000_000, 0), new Wake(1_580_000, 1), new Wake(1_600_000, 1)), card.wakes);
    assertEquals(List.of(1_600_000L), card.interrupts);
    assertEquals(null, card.wallTicks, "never a wall tick under the kernel");
  }

  @Test
  void shouldIgnoreAWakeOfAnEarlierStallAndDetectANewHangAfterTheReset() {
    clock.underKernel(true);
    clock.hang(1_000_000);
    runWakes();
    clock.woke(1_580_000, 1); // once more, late: the interrupt was raised
    assertEquals(1, card.interrupts.size());

    firmware.reset(2_000_000);
    clock.reset();
    firmware.reload(2_001_000); // L_timer at 2,791 us and 3,581 us, the watchdog then at 3,601 us
    clock.hang(3_000_000);
    runWakes();

    assertEquals(List.of(1_600_000L, 3_601_000L), card.interrupts, "the second hang is detected too");
    assertEquals(new Wake(3_601_000, 2), card.wakes.get(card.wakes.size() - 1), "the second stall's wakes");
  }

  @Test
  void shouldTickOneTimerIntervalPerDilatedWallIntervalWhenFreeRunning() {
    clock.hang(0);
    assertEquals(Duration.ofNanos(2 * 790_000), card.wallTicks, "790 us of model time, TDF 2");

    clock.wallTick();
    assertTrue(card.interrupts.isEmpty());
    clock.wallTick();

    assertEquals(List.of(810_000L), card.interrupts, "L_timer never ran: the watchdog runs out 810 us after boot");
    assertEquals(null, card.wallTicks, "the interrupt stops the ticks");
    assertTrue(card.wakes.isEmpty(), "no model-time wake free-running");
  }

  @Test
  void shouldNeverRunOnWhenTheCardHasNoWatchdog() {
    NicFirmware plain = new NicFirmware(NicFirmwareHangTest.MAP, NicFirmwareHangTest.MH,
        NicFirmwareHangTest.SETTINGS, card);
    HungClock none = new HungClock(plain, null, 1.0, card);
    plain.hang(0);
    none.whenStalled();

    assertFalse(none.hasWatchdog());
    assertEquals(null, card.wallTicks);
    assertTrue(card.wakes.isEmpty());
  }
}
