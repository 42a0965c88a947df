package io.rackfabric.host.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class NicStatsTest {

  private static NicStats stats(int queued, boolean dma, int held) {
    NicStats.VfStats vf = new NicStats.VfStats(0, true, 0, 0, 1_000, 0x1000, 64, 3, 4, 0, 4, 3, 192, 2, 0, 0, 0, 0,
        0, 1);
    return new NicStats("nic", 5_000, 10, 4_000, 3, 192, 4_500, 0, 0, 0, 0, 0, queued, dma, 0, List.of(vf))
        .withHeldForOrder(held);
  }

  @Test
  void shouldSayWhatTheCardHoldsWhenAStreamIsStuck() {
    String text = stats(2, true, 1).describeVf(0);
    assertTrue(text.startsWith("nic at 5000 ns: 2 event(s) queued, a DMA read outstanding, 1 write(s) held"), text);
    assertTrue(text.contains("VF 0: head 3, tail 4, 4 doorbell(s), 3 frame(s), 2 foreign doorbell(s)"), text);
    assertTrue(text.endsWith("1 DMA error(s)"), text);
  }

  @Test
  void shouldKeepEveryOtherFigureWhenTheHeldWritesAreAdded() {
    NicStats s = stats(0, false, 7);
    assertEquals(7, s.heldForOrder());
    assertEquals(stats(0, false, 0).vfs(), s.vfs());
    assertTrue(s.describeVf(0).contains("no DMA outstanding"));
    assertTrue(s.describeVf(5).endsWith("; no VF 5"), s.describeVf(5));
  }
}
