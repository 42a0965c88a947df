package io.rackfabric.fabric.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rackfabric.fabric.stats.EndpointStats.AccessDenial;
import java.util.List;
import org.junit.jupiter.api.Test;

class AccessDenialsTest {

  @Test
  void shouldCountReadsAndWritesPerRequesterSortedByIdWhenDenialsArrive() {
    AccessDenials d = new AccessDenials();
    int[] order = {0x0500, 0x0100, 0x0300, 0x0100, 0x0700, 0x0200, 0x0500, 0x0600};
    for (int i = 0; i < order.length; i++) {
      d.count(order[i], i % 2 == 0);
    }
    assertEquals(List.of(new AccessDenial(0x0100, 2, 0), new AccessDenial(0x0200, 1, 0),
        new AccessDenial(0x0300, 0, 1), new AccessDenial(0x0500, 0, 2), new AccessDenial(0x0600, 1, 0),
        new AccessDenial(0x0700, 0, 1)), d.snapshot());
    assertEquals(8, d.total());
  }

  @Test
  void shouldBeEmptyWhenNothingWasDenied() {
    assertEquals(List.of(), new AccessDenials().snapshot());
    assertEquals(0, new AccessDenials().total());
  }
}
