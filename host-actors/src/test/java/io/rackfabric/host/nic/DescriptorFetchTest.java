package io.rackfabric.host.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The transmit path alone: the test is the loop (it gives each step its model time) and the fabric. */
class DescriptorFetchTest {

  static final NicSettings SETTINGS = NicFirmwareTest.SETTINGS;
  static final long RING = NicFirmwareTest.RING;
  static final long WB = NicFirmwareTest.WB;
  static final long BUFFER = 0x8_0000_2000L;

  final NicFirmwareTest.FakeHardware hw = new NicFirmwareTest.FakeHardware();
  final TxQueue[] queues = {new TxQueue(0), new TxQueue(1)};
  final DescriptorFetch fetch = new DescriptorFetch(SETTINGS, hw, queues);

  void ready(int vf, int descriptors, int tail) {
    TxQueue q = queues[vf];
    q.enabled = true;
    long base = RING + vf * 0x1000L;
    q.baseLow = (int) base;
    q.baseHigh = (int) (base >>> 32);
    q.writeBackLow = (int) WB;
    q.writeBackHigh = (int) (WB >>> 32);
    q.restart(descriptors);
    q.tail = tail;
  }

  @Test
  void shouldDoNothingWhenNoEnabledQueueHasDescriptors() {
    queues[0].enabled = true;

    assertFalse(fetch.start(100));
    assertFalse(fetch.busy());
    assertTrue(hw.reads.isEmpty());
  }

  @Test
  void shouldTransmitAndWriteTheHeadBackAtTheModelTimeOfEachStepWhenBothReadsSucceed() {
    ready(0, 8, 1);
    assertTrue(fetch.start(1_000));
    assertEquals(new NicFirmwareTest.Read(RING, SETTINGS.descriptorSize(), 1_000), hw.lastRead());
    assertEquals(1_500, fetch.dueAt(RING, 500, 9_999), "due when the read was issued plus its latency");

    byte[] frame = UdpFrames.build(0, 0, 9_000, 64);
    long now = fetch.completed(RING, true, RegisterMap.descriptor(BUFFER, frame.length, SETTINGS.descriptorSize()),
        500, 1_000);
    assertEquals(1_500 + SETTINGS.descriptorProcessingNs(), now);
    assertEquals(new NicFirmwareTest.Read(BUFFER, frame.length, now), hw.lastRead());

    long sentAt = fetch.completed(BUFFER, true, frame, 700, now);
    assertEquals(now + 700, sentAt);
    assertEquals(1, hw.sent.size());
    assertArrayEquals(frame, hw.sent.get(0).frame());
    assertEquals(sentAt + SETTINGS.txLatencyNs(), hw.sent.get(0).tx().startAt());
    assertEquals(new NicFirmwareTest.Written(WB, hw.writes.get(0).data(), sentAt), hw.writes.get(0));
    assertArrayEquals(RegisterMap.dwords(1), hw.writes.get(0).data());
    assertEquals(1, queues[0].head);
    assertFalse(fetch.busy());
  }

  @Test
  void shouldTakeTheVfsRoundRobinWhenSeveralHaveDescriptors() {
    ready(0, 8, 2);
    ready(1, 8, 2);

    fetch.start(0);
    fetch.completed(RING, false, null, 10, 0);
    fetch.start(100);

    assertEquals(1, queues[0].dmaErrors);
    assertEquals(new NicFirmwareTest.Read(RING + 0x1000L, SETTINGS.descriptorSize(), 100), hw.lastRead(),
        "VF 1's descriptor is next though VF 0 has one left");
  }

  @Test
  void shouldCountAStrayWhenTheRingRestartedWhileTheReadWasOut() {
    ready(0, 8, 1);
    fetch.start(0);
    queues[0].restart(8);

    long now = fetch.completed(RING, true, new byte[SETTINGS.descriptorSize()], 300, 50);

    assertEquals(300, now);
    assertEquals(1, fetch.strayDma());
    assertFalse(fetch.busy());
    assertTrue(hw.writes.isEmpty());
  }

  @Test
  void shouldSkipAndCountTheDescriptorWhenItHasNoEndOfPacket() {
    ready(0, 8, 1);
    fetch.start(0);
    byte[] desc = new byte[SETTINGS.descriptorSize()];

    fetch.completed(RING, true, desc, 300, 0);

    assertEquals(1, queues[0].badDescriptors);
    assertEquals(1, queues[0].head);
    assertTrue(hw.sent.isEmpty());
  }
}
