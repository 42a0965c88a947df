package io.rackfabric.host.iommu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class DenialCountersTest {

  @Test
  void shouldCountReadsAndWritesApartAndListRequestersInOrder() {
    DenialCounters d = new DenialCounters();
    int[] requesters = {0x500, 0x100, 0x300, 0x200, 0x400, 0x100}; // more than the first arrays hold
    for (int r : requesters) {
      d.count(r, false);
    }
    d.count(0x300, true);
    d.count(0x300, true);
    assertEquals(2, d.reads(0x100));
    assertEquals(2, d.writes(0x300));
    assertEquals(0, d.writes(0x100));
    assertEquals(0, d.reads(0x999));
    assertEquals(8, d.total());
    assertEquals(List.of(new DenialCount(0x100, 2, 0), new DenialCount(0x200, 1, 0), new DenialCount(0x300, 1, 2),
        new DenialCount(0x400, 1, 0), new DenialCount(0x500, 1, 0)), d.all());
  }

  @Test
  void shouldKeepCountsApartWhenCopied() {
    DenialCounters d = new DenialCounters();
    d.count(7, true);
    DenialCounters c = d.copy();
    c.count(7, true);
    c.count(8, false);
    assertEquals(1, d.total());
    assertEquals(List.of(new DenialCount(7, 0, 1)), d.all());
    assertEquals(3, c.total());
  }
}
