package io.rackfabric.host.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

class UdpFramesTest {

  @Test
  void shouldCarrySequenceAndSendTimeWhenBuiltAndParsed() {
    byte[] f = UdpFrames.build(3, 42, 123_456_789L, 64);
    assertEquals(UdpFrames.HEADERS + 64, f.length);
    assertEquals(new UdpFrames.Parsed(42, 123_456_789L, 64), UdpFrames.parse(f));
  }

  @Test
  void shouldHaveValidIpv4HeaderChecksum() {
    byte[] f = UdpFrames.build(0, 7, 0, 16);
    int sum = 0;
    for (int i = 14; i < 34; i += 2) {
      sum += ((f[i] & 0xFF) << 8) | (f[i + 1] & 0xFF);
    }
    sum = (sum & 0xFFFF) + (sum >>> 16);
    assertEquals(0xFFFF, sum);
  }

  @Test
  void shouldParseNothingWhenFrameIsNotATestFrame() {
    assertNull(UdpFrames.parse(new byte[60]));
    assertNull(UdpFrames.parse(null));
  }

  @Test
  void shouldRecordDuplicatesReorderingAndInterArrivalsWhenFramesArrive() {
    ArrivalLog log = new ArrivalLog();
    for (long[] f : new long[][] {{0, 1_000}, {1, 2_000}, {1, 3_000}, {0, 4_500}}) {
      log.record(new EthernetFrame("nic", 2, UdpFrames.build(2, f[0], 10, 64), 130, f[1] - 100, f[1]));
    }
    log.record(new EthernetFrame("nic", 1, new byte[60], 84, 4_900, 5_000));

    ReceiverReport r = log.report("rx");
    assertEquals(5, r.frames());
    assertEquals(2, r.duplicates());
    assertEquals(1, r.outOfOrder());
    assertEquals(1, r.nonTest());
    assertEquals(List.of(1_000L, 1_000L, 1_500L, 500L), r.interArrivalNs());
    assertEquals(new ReceiverReport.Arrival(2, 1, UdpFrames.HEADERS + 64, 10, 2_000, -1), r.arrivals().get(1));
    assertEquals(1_990, r.arrivals().get(1).latencyNs());
    assertEquals(-1, r.arrivals().get(4).latencyNs());
    assertEquals(5_000, r.modelNow());
  }
}
