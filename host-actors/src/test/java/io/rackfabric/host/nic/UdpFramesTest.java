package io.rackfabric.host.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.rackfabric.fabric.stats.Latencies;
import java.util.ArrayList;
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
    List<ReceiverReport.Arrival> taken = new ArrayList<>();
    for (long[] f : new long[][] {{0, 1_000}, {1, 2_000}, {1, 3_000}, {0, 4_500}, {3, 4_600}, {2, 4_700}}) {
      taken.add(log.record(new EthernetFrame("nic", 2, UdpFrames.build(2, f[0], 10, 64), 130, f[1] - 100, f[1])));
    }
    taken.add(log.record(new EthernetFrame("nic", 1, new byte[60], 84, 4_900, 5_000)));

    ReceiverReport r = log.report("rx");
    assertEquals(7, r.frames());
    assertEquals(2, r.duplicates(), "1 and 0 again");
    assertEquals(1, r.outOfOrder(), "2 behind 3; the second 0 is a duplicate, not counted again");
    assertEquals(1, r.nonTest());
    assertEquals(List.of(2), r.sources());
    assertEquals(5_000, r.modelNow());
    assertEquals(new ReceiverReport.Arrival(2, 1, UdpFrames.HEADERS + 64, 10, 2_000, -1), taken.get(1));
    assertEquals(1_990, taken.get(1).latencyNs());
    assertEquals(-1, taken.get(6).latencyNs());

    StreamSummary s = log.stream(2, 5);
    assertEquals(6, s.received());
    assertEquals(4, s.unique());
    assertEquals(4, s.uniqueBelowDue(), "0 to 3 of 0 to 4 arrived");
    assertEquals(100, s.model().gapMin());
    assertEquals(1_500, s.model().gapMax());
    assertEquals(5, s.model().gapCount());
    assertEquals(1_000, s.model().origin());
    assertArrayEquals(new long[] {1_000, 2_000, 3_500, 3_600, 3_700}, s.model().at());
    assertArrayEquals(new long[] {1_000, 1_000, 1_500, 100, 100}, s.model().gap());
    assertEquals(-1, s.wall().gapMax(), "no wall times taken");
    assertEquals(990, s.latencyMin());
    assertEquals(4_690, s.latencyMax());
    assertEquals(6, Latencies.decode(s.latencies()).getTotalCount());
    assertEquals(0, log.stream(7, 3).uniqueBelowDue(), "a VF that sent nothing");
  }
}
