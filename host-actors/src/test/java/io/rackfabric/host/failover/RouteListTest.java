package io.rackfabric.host.failover;

import static io.rackfabric.host.memory.Plane.PRIMARY;
import static io.rackfabric.host.memory.Plane.SECONDARY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.memory.Plane;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A host's list of which plane reaches each target (Ladon section 4.2). */
class RouteListTest {

  @Test
  void shouldReachTheMhAndEveryChThroughThePrimaryPlaneWhenNew() {
    RouteList routes = new RouteList(3);
    assertEquals(List.of(PRIMARY, PRIMARY, PRIMARY, PRIMARY), routes.snapshot());
    for (int t = 0; t <= 3; t++) {
      assertEquals(PRIMARY, routes.plane(t));
    }
  }

  @Test
  void shouldMoveOnlyTheFailedTargetWhenUsed() {
    RouteList routes = new RouteList(3);

    assertTrue(routes.use(2, SECONDARY));

    assertEquals(List.of(PRIMARY, PRIMARY, SECONDARY, PRIMARY), routes.snapshot());
    assertFalse(routes.use(2, SECONDARY), "already there");
    assertFalse(routes.use(1, PRIMARY), "already there");
    assertTrue(routes.use(2, PRIMARY), "back after a repair");
    assertEquals(PRIMARY, routes.plane(2));
  }

  @Test
  void shouldMoveEveryTargetWhenTheHostsOwnLinkFailed() {
    RouteList routes = new RouteList(2);
    routes.useEverywhere(SECONDARY);
    assertEquals(List.of(SECONDARY, SECONDARY, SECONDARY), routes.snapshot());
    assertFalse(routes.use(0, SECONDARY));
  }

  @Test
  void shouldKeepASnapshotUnchangedWhenTheListChangesLater() {
    RouteList routes = new RouteList(2);
    List<Plane> before = routes.snapshot();

    routes.use(1, SECONDARY);

    assertEquals(List.of(PRIMARY, PRIMARY, PRIMARY), before);
    assertThrows(UnsupportedOperationException.class, () -> before.set(0, SECONDARY));
  }

  @Test
  void shouldRefuseATargetWhenOutsideTheList() {
    RouteList routes = new RouteList(2);
    assertThrows(IndexOutOfBoundsException.class, () -> routes.plane(3));
    assertThrows(IndexOutOfBoundsException.class, () -> routes.use(-1, SECONDARY));
  }
}
