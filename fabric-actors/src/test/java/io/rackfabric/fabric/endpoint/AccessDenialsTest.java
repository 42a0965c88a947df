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

  @Test
  void shouldAnswerOneRequestersReadsAndWritesWhenAsked() {
    AccessDenials d = new AccessDenials();
    int[] requesters = {0x500, 0x100, 0x300, 0x200, 0x400, 0x100}; // more than the first arrays hold
    for (int r : requesters) {
      d.count(r, false);
    }
    d.count(0x300, true);
    d.count(0x300, true);
    assertEquals(2, d.reads(0x100));
    assertEquals(0, d.writes(0x100));
    assertEquals(1, d.reads(0x300));
    assertEquals(2, d.writes(0x300));
    assertEquals(0, d.reads(0x999), "never denied");
    assertEquals(0, d.writes(0x999));
  }

  @Test
  void shouldKeepCountsApartWhenCopied() {
    AccessDenials d = new AccessDenials();
    d.count(7, true);
    AccessDenials c = d.copy();
    c.count(7, true);
    c.count(8, false);
    for (int r = 9; r < 20; r++) {
      c.count(r, false); // the copy grows past its first arrays
    }
    assertEquals(1, d.total());
    assertEquals(List.of(new AccessDenial(7, 0, 1)), d.snapshot());
    assertEquals(14, c.total());
    assertEquals(2, c.writes(7));
  }
}
