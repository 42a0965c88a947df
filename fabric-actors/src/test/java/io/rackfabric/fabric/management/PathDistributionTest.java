package io.rackfabric.fabric.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.management.StructuralFabric.PortRef;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The fabric manager's distribution of paths over a hop-by-hop test fabric ({@link HopFabric}). */
class PathDistributionTest {

  private static final DataLinkState ACTIVE = DataLinkState.DL_ACTIVE;
  private static final long HOP = 100;

  /**
   * Three 8-port switches in a triangle: sw1 (fm on 1, e1 on 2; 5 to sw2's 0, 6 to sw3's 0), sw2
   * (e2 on 2) and sw3 (e3 on 2) linked by their ports 1.
   */
  private static HopFabric triangle(boolean paths) {
    return new HopFabric(List.of(TestDevices.endpoint("fm", 7, 0, ACTIVE), TestDevices.endpoint("e1", 8, -1, ACTIVE),
        TestDevices.endpoint("e2", 9, -1, ACTIVE), TestDevices.endpoint("e3", 10, -1, ACTIVE),
        TestDevices.switchOf("sw1", 11, 8, Set.of(1, 2, 5, 6), ACTIVE),
        TestDevices.switchOf("sw2", 12, 8, Set.of(0, 1, 2), ACTIVE),
        TestDevices.switchOf("sw3", 13, 8, Set.of(0, 1, 2), ACTIVE)),
        List.of(link("fm", 0, "sw1", 1), link("e1", 0, "sw1", 2), link("e2", 0, "sw2", 2), link("e3", 0, "sw3", 2),
            link("sw1", 5, "sw2", 0), link("sw1", 6, "sw3", 0), link("sw2", 1, "sw3", 1)), "fm", 8, HOP, paths);
  }

  private static List<PortRef> link(String a, int pa, String b, int pb) {
    return List.of(new PortRef(a, pa), new PortRef(b, pb));
  }

  /** Path-table writes put on their first link (a write crossing two links is sent twice). */
  private static long pathWrites(HopFabric f) {
    return f.sent.stream().filter(m -> m.pointer() == 1
        && m.packet() instanceof Pi4Write w && w.aperture() == PathTableCapability.APERTURE).count();
  }

  private static PathTable held(HopFabric f, String id) {
    return f.agents.get(id).pathTable().table();
  }

  @Test
  void shouldWriteEveryEndpointItsTableWhenTheDiscoveryEnds() {
    HopFabric f = triangle(true);
    f.discover(0);
    PathReport p = f.driver.report().paths();
    assertEquals(1, p.rounds().size());
    PathReport.Round r = p.rounds().get(0);
    assertEquals("discovery", r.trigger());
    assertEquals(f.driver.report().discoveredAt(), r.at());
    assertEquals(4 * 3, r.paths());
    assertEquals(List.of(7L, 8L, 9L, 10L), r.endpointsWritten());
    assertEquals(3 * (3 + 1), r.writes(), "three entries and a header to each of e1, e2, e3");
    assertEquals(3 + 1, r.localWrites(), "the fabric manager's own, applied without packets");
    assertEquals(r.writes(), pathWrites(f), "each written once, on its first link");
    // an entry of a two-turn path: 8 header + 8 + 3 registers + 1 register of turns
    assertEquals(3 * (3 * (16 + 16) + (16 + 8)), r.bytes());
    for (PathTable want : p.computed()) {
      String id = want.endpoint() == 7 ? "fm" : "e" + (want.endpoint() - 7);
      assertNull(want.firstDifference(held(f, id)), id);
      assertEquals(1, f.agents.get(id).pathTable().generation());
    }
    assertEquals(new Route(List.of(0, 1, 2)), held(f, "e2").route(10).orElseThrow(), "e2 straight to e3");
    long lastHeld = f.agents.values().stream().filter(a -> a.pathTable() != null)
        .mapToLong(a -> a.pathTable().heldAt(1, 0)).max().orElseThrow();
    assertEquals(r.at() + 3 * HOP, lastHeld, "three links from the fabric manager to e2 and e3");
  }

  @Test
  void shouldRewriteOnlyThePathsThatCrossedALinkWhenItGoesDown() {
    HopFabric f = triangle(true);
    f.discover(0);
    long before = pathWrites(f);
    f.portDown("sw2", 1, 50_000);
    PathReport p = f.driver.report().paths();
    assertEquals(2, p.rounds().size());
    PathReport.Round r = p.rounds().get(1);
    assertEquals("rediscovery 0", r.trigger());
    assertEquals(List.of(9L, 10L), r.endpointsWritten(), "e2 and e3 only: fm's and e1's paths never crossed it");
    assertEquals(2 * (1 + 1), r.writes(), "each its one entry to the other, and a header");
    assertEquals(0, r.localWrites());
    assertEquals(before + r.writes(), pathWrites(f));
    assertEquals(new Route(List.of(0, 0, 6, 2)), held(f, "e2").route(10).orElseThrow(), "around through sw1");
    assertEquals(new Route(List.of(0, 0, 5, 2)), held(f, "e3").route(9).orElseThrow());
    assertEquals(1, f.agents.get("e1").pathTable().generation(), "e1 untouched");
    assertEquals(2, f.agents.get("e2").pathTable().generation());
    for (PathTable want : p.computed()) {
      String id = want.endpoint() == 7 ? "fm" : "e" + (want.endpoint() - 7);
      assertNull(want.firstDifference(held(f, id)), id);
    }
  }

  @Test
  void shouldWriteNothingWhenALinkNoPathCrossesGoesDown() {
    HopFabric f = new HopFabric(List.of(TestDevices.endpoint("fm", 7, 0, ACTIVE), TestDevices.endpoint("e1", 8, -1, ACTIVE),
        TestDevices.switchOf("sw1", 11, 8, Set.of(1, 3, 4), ACTIVE), TestDevices.switchOf("sw2", 12, 8, Set.of(0, 1, 2), ACTIVE)),
        List.of(link("fm", 0, "sw1", 1), link("e1", 0, "sw2", 2), link("sw1", 3, "sw2", 0), link("sw1", 4, "sw2", 1)),
        "fm", 8, HOP, true);
    f.discover(0);
    long before = pathWrites(f);
    f.portDown("sw1", 4, 50_000); // the second of two parallel links: the paths take the lower port
    PathReport.Round r = f.driver.report().paths().rounds().get(1);
    assertEquals(List.of(), r.endpointsWritten());
    assertEquals(0, r.writes() + r.localWrites());
    assertEquals(before, pathWrites(f));
    assertEquals(2, r.paths(), "computed again all the same");
  }

  @Test
  void shouldDistributeNoPathWhenItIsOff() {
    HopFabric f = triangle(false);
    f.discover(0);
    assertNull(f.driver.report().paths());
    assertEquals(0, pathWrites(f));
    assertTrue(held(f, "e1").entries().isEmpty());
  }
}
