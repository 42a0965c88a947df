package io.rackfabric.loadtests.scenario.figure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.stats.WireUse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Links, their carried bandwidth in the window and their shares of the next link, off wire meters. */
class LinkSharesTest {

  /** A 1000 ns window on a 2 bits/ns link (250 MB/s). */
  private static WireUse use(double windowBytes, long busyNs) {
    return new WireUse(10, 5000, 1000, 2000, windowBytes, busyNs, 2.0);
  }

  private static final List<List<String>> PATHS = List.of(
      List.of("a", "s1.up", "top.up"),
      List.of("b", "s1.up", "top.up"),
      List.of("c", "s2.up", "top.up"));

  @Test
  void shouldGiveEachLinksShareOfTheNextWhenThePathsMeet() {
    Map<String, WireUse> end = Map.of("a", use(50, 200), "b", use(50, 200), "c", use(100, 400),
        "s1.up", use(100, 400), "s2.up", use(100, 400), "top.up", use(200, 800));

    List<LinkShares.Link> links = LinkShares.of(PATHS, Map.of(), end);

    assertEquals(List.of("a", "b", "c", "s1.up", "s2.up", "top.up"), links.stream().map(LinkShares.Link::end).toList());
    LinkShares.Link a = links.get(0);
    assertEquals(50.0, a.carriedMBps(), 1e-9, "50 bytes in 1000 ns");
    assertEquals(0.2, a.utilization(), 1e-9);
    assertEquals(250.0, a.linkMBps(), 1e-9);
    assertEquals(0.5, a.shareOfNext(), 1e-9);
    assertEquals("s1.up", a.next());
    assertEquals(2, links.get(3).feeders(), "a and b feed s1.up");
    assertEquals(1, links.get(4).feeders());
    LinkShares.Link top = links.get(5);
    assertNull(top.next());
    assertTrue(Double.isNaN(top.shareOfNext()));
    assertEquals(2, top.feeders());
  }

  @Test
  void shouldCountOnlyWhatTheWindowGainedDuringTheRunWhenTheStartHadSome() {
    Map<String, WireUse> start = Map.of("top.up", use(50, 200));
    Map<String, WireUse> end = Map.of("a", use(0, 0), "b", use(0, 0), "c", use(0, 0),
        "s1.up", use(0, 0), "s2.up", use(0, 0), "top.up", use(200, 800));

    LinkShares.Link top = LinkShares.of(PATHS, start, end).get(5);

    assertEquals(150.0, top.carriedMBps(), 1e-9);
    assertEquals(0.6, top.utilization(), 1e-9);
  }

  @Test
  void shouldNameTheEndWhenItHasNoWindowOrNoStatistics() {
    Map<String, WireUse> end = Map.of("a", new WireUse(1, 280, 0, 0, 0, 0, 2.0));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> LinkShares.of(List.of(List.of("a")), Map.of(), end));
    assertTrue(e.getMessage().contains("link a: no meter window"), e.getMessage());

    e = assertThrows(IllegalArgumentException.class, () -> LinkShares.of(List.of(List.of("x")), Map.of(), end));
    assertTrue(e.getMessage().contains("link x: no statistics"), e.getMessage());
  }

  @Test
  void shouldRefuseAnEndThatLeadsToTwoNextLinksWhenPathsDisagree() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LinkShares.of(
        List.of(List.of("a", "s1.up"), List.of("a", "s2.up")), Map.of(), Map.of()));
    assertTrue(e.getMessage().contains("link a leads to s1.up on one path and to s2.up"), e.getMessage());
  }
}
