package io.rackfabric.host.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.time.EventQueue;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The rack NIC's firmware with FTGM's machinery, driven step by step: L_timer on the card's clock,
 * the spare watchdog, a hang, and the reset/reload/restore that recovers it, with both sides of
 * the send's commit point (the head write-back in the cycle that puts the frame on the wire).
 */
class NicFirmwareHangTest {

  static final McpTiming TIMING = new McpTiming(3_000, 400, 1_000, 790_000, 810_000, 5_000_000);
  static final RegisterMap MAP = NicFirmwareTest.MAP;
  static final NicSettings SETTINGS = NicFirmwareTest.SETTINGS;
  static final int MH = NicFirmwareTest.MH;
  static final int CH1 = NicFirmwareTest.CH1;
  static final long RING = NicFirmwareTest.RING;
  static final long WB = NicFirmwareTest.WB;
  static final long BUFFER = 0x8_0000_2000L;

  static final class Card extends NicFirmwareTest.FakeHardware {
    final List<Long> interrupts = new ArrayList<>();

    @Override
    public void interrupt(long at) {
      interrupts.add(at);
    }
  }

  final EventQueue clock = new EventQueue();
  final Card hw = new Card();
  final NicFirmware fw = new NicFirmware(MAP, MH, SETTINGS, hw, TIMING, clock);

  NicFirmwareHangTest() {
    fw.boot(0);
  }

  void assignAndSetUp(long at) {
    RegisterMap.Poke p = MAP.assignVf(0, RequesterMatch.throughNtb(CH1), RequesterMatch.NONE);
    fw.registerWritten(p.address(), p.data(), MH, at);
    fw.registerWritten(MAP.vfBar(0) + RegisterMap.TDBAL, RegisterMap.ringSetup(RING, 8, WB), CH1, at);
  }

  void doorbell(int tail, long at) {
    fw.registerWritten(MAP.vfBar(0) + RegisterMap.TDT, RegisterMap.tail(tail), CH1, at);
  }

  /** Answers the read in flight {@code latency} after it was issued: the descriptor, then the frame. */
  void answerDescriptor(long latency) {
    fw.dmaCompleted(hw.lastRead().address(), true, RegisterMap.descriptor(BUFFER, 106, SETTINGS.descriptorSize()),
        latency);
  }

  void answerFrame(long latency) {
    fw.dmaCompleted(hw.lastRead().address(), true, UdpFrames.build(0, 0, 0, 64), latency);
  }

  /** The card's reset, reload and the PF driver's VF table, then the VF driver's ring restore. */
  void recover(long at, int head, int tail) {
    fw.reset(at);
    fw.reload(at + 1_000);
    fw.restoreVf(0, RequesterMatch.throughNtb(CH1), RequesterMatch.NONE, at + 2_000);
    fw.registerWritten(MAP.vfBar(0) + RegisterMap.TDBAL, RegisterMap.ringRestore(RING, 8, WB, head, tail), CH1,
        at + 3_000);
  }

  @Test
  void shouldCallLTimerEveryIntervalAndNeverInterruptWhenLoopRuns() {
    fw.advanceClock(10_000_000);

    assertEquals(12, fw.lTimerCalls()); // 790 us, 1580 us, ..., 9480 us
    assertEquals(12 * 790_000L, fw.lastLTimerAt());
    assertEquals(12 * 790_000L + 810_000, fw.watchdogDeadline());
    assertTrue(hw.interrupts.isEmpty());
  }

  @Test
  void shouldFireWatchdogExactlyOneWatchdogIntervalAfterTheLastLTimerWhenLoopHangs() {
    fw.advanceClock(2_000_000);
    assertEquals(2, fw.lTimerCalls());
    assertEquals(2_000_000, fw.hang(2_000_000));

    fw.advanceClock(2_389_999);
    assertTrue(hw.interrupts.isEmpty(), "not before the deadline");
    fw.advanceClock(50_000_000);

    assertEquals(2, fw.lTimerCalls(), "a hung loop calls no L_timer");
    assertEquals(List.of(1_580_000L + 810_000), hw.interrupts);
  }

  @Test
  void shouldStopAtTheHangAndLetEventsPileUpWhenHungBeforeTheirTime() {
    assignAndSetUp(1_000);
    fw.hang(5_000);
    assertFalse(fw.stalled(), "the loop has not reached the hang in model time yet");
    doorbell(1, 10_000);
    assertTrue(fw.stalled());

    assertTrue(hw.reads.isEmpty(), "a hung loop starts no descriptor");
    assertEquals(1, fw.queuedEvents());
    assertEquals(5_000, fw.hungAt());
  }

  @Test
  void shouldClearMagicWordOnlyWhileLoopRuns() {
    fw.writeMagicWord(100_000);
    fw.advanceClock(100_000 + 1_000_000);
    assertTrue(fw.magicWordCleared());

    fw.hang(1_200_000);
    fw.writeMagicWord(3_000_000);
    fw.advanceClock(4_000_000);
    assertFalse(fw.magicWordCleared());
  }

  @Test
  void shouldSendAgainOnceWhenHangCameBeforeTheFrameReachedTheWire() {
    assignAndSetUp(1_000);
    doorbell(1, 10_000);
    answerDescriptor(1_500);
    fw.hang(fw.now() + 100); // the buffer read is out; its answer is due after the hang
    answerFrame(1_700);
    assertTrue(hw.sent.isEmpty());
    assertTrue(hw.writes.isEmpty(), "no write-back: the host's last head is still 0");

    recover(2_000_000, 0, 1); // head from the last write-back (none: 0), tail from the host's copy
    answerDescriptor(1_500);
    answerFrame(1_700);

    assertEquals(1, hw.sent.size(), "sent once, after the recovery");
    assertTrue(hw.sent.get(0).tx().startAt() > 2_000_000);
    assertEquals(1, hw.writes.size());
    assertEquals(1, fw.stats("nic", 0).vf(0).head());
  }

  @Test
  void shouldNotSendAgainWhenHangCameAfterTheFrameAndItsWriteBack() {
    assignAndSetUp(1_000);
    doorbell(1, 10_000);
    answerDescriptor(1_500);
    answerFrame(1_700);
    assertEquals(1, hw.sent.size());
    assertEquals(1, hw.writes.size(), "the write-back left in the frame's own cycle");
    fw.hang(fw.now() + 1);

    recover(2_000_000, 1, 1); // the host saw head 1: nothing is pending
    fw.advanceClock(3_000_000);

    assertEquals(1, hw.sent.size(), "nothing on the wire twice");
    assertEquals(2, hw.reads.size(), "no descriptor read again");
    NicStats.VfStats vf = fw.stats("nic", 0).vf(0);
    assertEquals(1, vf.head());
    assertEquals(1, vf.tail());
  }

  @Test
  void shouldDropWritesAndRestartTimersWhenCardIsResetThenReloaded() {
    fw.advanceClock(1_000_000);
    fw.hang(1_000_000);
    fw.reset(2_000_000);
    doorbell(1, 2_100_000);
    assertEquals(1, fw.writesWhileDown());
    assertEquals(-1, fw.watchdogDeadline(), "the reset disables the watchdog");

    fw.reload(2_500_000);
    fw.advanceClock(2_500_000 + 790_000);
    assertFalse(fw.hung());
    assertEquals(2_500_000 + 790_000, fw.lastLTimerAt());
    assertEquals(2_500_000 + 790_000 + 810_000, fw.watchdogDeadline());
    assertFalse(fw.stats("nic", 0).vf(0).enabled(), "card memory cleared: the VF table comes from the host");
  }
}
