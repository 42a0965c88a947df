package io.rackfabric.host.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.tlp.Bdf;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The firmware loop driven step by step: the test plays the fabric and answers each DMA. */
class NicFirmwareTest {

  static final NicSettings SETTINGS = RegisterMapTest.SETTINGS;
  static final RegisterMap MAP = RegisterMapTest.MAP;
  static final int MH = Bdf.of(0, 0, 0);
  static final int CH1 = Bdf.of(4, 1, 0);
  static final int CH2 = Bdf.of(4, 2, 0);
  static final long RING = 0x8_0000_1000L;
  static final long WB = 0x8_0000_1400L;

  record Read(long address, int length, long at) {}

  record Written(long address, byte[] data, long at) {}

  record Sent(int vf, byte[] frame, EthernetLink.Transmission tx) {}

  static final class FakeHardware implements NicFirmware.Hardware {
    final List<Read> reads = new ArrayList<>();
    final List<Written> writes = new ArrayList<>();
    final List<Sent> sent = new ArrayList<>();

    @Override
    public void dmaRead(long address, int length, long at) {
      reads.add(new Read(address, length, at));
    }

    @Override
    public void dmaWrite(long address, byte[] data, long at) {
      writes.add(new Written(address, data, at));
    }

    @Override
    public void transmit(int vf, byte[] frame, EthernetLink.Transmission tx) {
      sent.add(new Sent(vf, frame, tx));
    }

    Read lastRead() {
      return reads.get(reads.size() - 1);
    }
  }

  final FakeHardware hw = new FakeHardware();
  final NicFirmware fw = new NicFirmware(MAP, MH, SETTINGS, hw);

  void assign(int vf, int requester, long at) {
    RegisterMap.Poke p = MAP.assignVf(vf, RequesterMatch.throughNtb(requester), RequesterMatch.NONE);
    fw.registerWritten(p.address(), p.data(), MH, at);
  }

  void setUpRing(int vf, int requester, int descriptors, long at) {
    fw.registerWritten(MAP.vfBar(vf) + RegisterMap.TDBAL, RegisterMap.ringSetup(RING, descriptors, WB), requester, at);
  }

  void doorbell(int vf, int requester, int tail, long at) {
    fw.registerWritten(MAP.vfBar(vf) + RegisterMap.TDT, RegisterMap.tail(tail), requester, at);
  }

  /** Answers the read in flight {@code latency} after it was issued. */
  void answer(byte[] data, long latency) {
    fw.dmaCompleted(hw.lastRead().address(), true, data, latency);
  }

  @Test
  void shouldFetchDescriptorThenBufferThenTransmitAndWriteBackWhenOwnerRingsDoorbell() {
    assign(0, CH1, 1_000);
    setUpRing(0, CH1, 8, 2_000);
    doorbell(0, CH1, 1, 10_000);

    long t = 10_000 + SETTINGS.doorbellProcessingNs();
    assertEquals(List.of(new Read(RING, SETTINGS.descriptorSize(), t)), hw.reads);
    byte[] frame = UdpFrames.build(0, 0, 9_000, 64);
    answer(RegisterMap.descriptor(0x8_0000_2000L, frame.length, SETTINGS.descriptorSize()), 1_500);

    t += 1_500 + SETTINGS.descriptorProcessingNs();
    assertEquals(new Read(0x8_0000_2000L, frame.length, t), hw.lastRead());
    answer(frame, 1_700);

    t += 1_700;
    assertEquals(1, hw.sent.size());
    Sent s = hw.sent.get(0);
    assertEquals(0, s.vf());
    assertArrayEquals(frame, s.frame());
    assertEquals(t + SETTINGS.txLatencyNs(), s.tx().startAt());
    assertEquals(1, hw.writes.size());
    assertEquals(WB, hw.writes.get(0).address());
    assertArrayEquals(RegisterMap.dwords(1), hw.writes.get(0).data());
    assertEquals(t, hw.writes.get(0).at());

    NicStats.VfStats vf = fw.stats("nic", 0).vf(0);
    assertTrue(vf.enabled());
    assertEquals(1_000, vf.assignedAt());
    assertEquals(1, vf.head());
    assertEquals(1, vf.frames());
    assertEquals(frame.length, vf.bytes());
    assertEquals(0, fw.queuedEvents());
    assertTrue(fw.cycles() >= 6, "a cycle per event and per descriptor started");
    assertEquals(t, fw.lastCycleAt());
  }

  @Test
  void shouldIgnoreAndCountDoorbellWhenRequesterIsNotTheVfOwner() {
    assign(0, CH1, 0);
    setUpRing(0, CH1, 8, 0);
    doorbell(0, CH2, 1, 5_000);
    setUpRing(0, CH2, 4, 6_000);

    assertTrue(hw.reads.isEmpty());
    NicStats.VfStats vf = fw.stats("nic", 0).vf(0);
    assertEquals(1, vf.foreignDoorbells());
    assertEquals(1, vf.foreignWrites());
    assertEquals(8, vf.ringLength(), "the foreign ring set-up changed nothing");
    assertEquals(0, vf.tail());
  }

  @Test
  void shouldIgnoreAndCountWritesWhenVfIsDisabledOrPfWriterIsNotTheOwner() {
    doorbell(1, CH1, 1, 0);
    RegisterMap.Poke p = MAP.assignVf(1, RequesterMatch.throughNtb(CH1), RequesterMatch.NONE);
    fw.registerWritten(p.address(), p.data(), CH1, 100); // a CH cannot assign itself a VF

    NicStats stats = fw.stats("nic", 0);
    assertEquals(1, stats.vf(1).disabledWrites());
    assertEquals(1, stats.foreignPfWrites());
    assertFalse(stats.vf(1).enabled());
    fw.registerWritten(MAP.vfBar(1) + 2, new byte[] {1, 2}, CH1, 200);
    assertEquals(1, fw.stats("nic", 0).malformedWrites());
  }

  @Test
  void shouldServeVfsRoundRobinWhenSeveralHavePendingDescriptors() {
    assign(0, CH1, 0);
    assign(1, CH2, 0);
    setUpRing(0, CH1, 8, 0);
    setUpRing(1, CH2, 8, 0);
    doorbell(0, CH1, 2, 1_000);
    doorbell(1, CH2, 1, 1_000);
    byte[] frame = UdpFrames.build(0, 0, 0, 16);
    for (int i = 0; i < 3; i++) {
      answer(RegisterMap.descriptor(0x9000, frame.length, SETTINGS.descriptorSize()), 100);
      answer(frame, 100);
    }
    assertEquals(List.of(0, 1, 0), hw.sent.stream().map(Sent::vf).toList());
    // Frames leave back to back at most: never overlapping on the wire.
    for (int i = 1; i < hw.sent.size(); i++) {
      assertTrue(hw.sent.get(i).tx().startAt() >= hw.sent.get(i - 1).tx().lastBitAt());
    }
  }

  @Test
  void shouldSkipAndCountDescriptorWhenItsLengthIsBadOrItsReadFails() {
    assign(0, CH1, 0);
    setUpRing(0, CH1, 4, 0);
    doorbell(0, CH1, 3, 0);
    answer(RegisterMap.descriptor(0x9000, SETTINGS.maxFrame() + 1, SETTINGS.descriptorSize()), 100);
    fw.dmaCompleted(hw.lastRead().address(), false, null, 100);
    answer(RegisterMap.descriptor(0x9000, 60, SETTINGS.descriptorSize()), 100);
    answer(new byte[60], 100);

    NicStats.VfStats vf = fw.stats("nic", 0).vf(0);
    assertEquals(1, vf.badDescriptors());
    assertEquals(1, vf.dmaErrors());
    assertEquals(1, vf.frames());
    assertEquals(3, vf.head());
    assertEquals(List.of(1, 2, 3), hw.writes.stream().map(w -> (int) w.data()[0]).toList());
  }

  @Test
  void shouldDropDmaInFlightWhenPfDisablesTheVf() {
    assign(0, CH1, 0);
    setUpRing(0, CH1, 4, 0);
    doorbell(0, CH1, 1, 0);
    RegisterMap.Poke release = MAP.releaseVf(0);
    // The release lands (model 90) before the descriptor read's answer is due (100): it goes first,
    // though the answer reaches the firmware after it.
    fw.registerWritten(release.address(), release.data(), MH, 90);
    answer(RegisterMap.descriptor(0x9000, 60, SETTINGS.descriptorSize()), 100);

    NicStats stats = fw.stats("nic", 0);
    assertEquals(1, stats.strayDma());
    assertFalse(stats.vf(0).enabled());
    assertEquals(0, stats.vf(0).ringLength());
    assertEquals(1, hw.reads.size());
    assertTrue(hw.sent.isEmpty());
  }

  @Test
  void shouldCountBadDoorbellWhenTailIsOutsideTheRing() {
    assign(0, CH1, 0);
    setUpRing(0, CH1, 4, 0);
    doorbell(0, CH1, 4, 0);
    setUpRing(0, CH1, SETTINGS.maxRing() + 1, 0);
    NicStats.VfStats vf = fw.stats("nic", 0).vf(0);
    assertEquals(1, vf.badDoorbells());
    assertEquals(1, vf.badRings());
    assertEquals(0, vf.ringLength());
    assertTrue(hw.reads.isEmpty());
  }
}
