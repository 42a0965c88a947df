package io.rackfabric.host.compute;

import static io.rackfabric.host.memory.Plane.PRIMARY;
import static io.rackfabric.host.memory.Plane.SECONDARY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.rackfabric.host.compute.HostRoutes.Change;
import io.rackfabric.host.failover.ControlWord;
import io.rackfabric.host.memory.Plane;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HostRoutesTest {

  @Test
  void shouldMoveOnlyTheFailedHostWhenAnotherHostLostAPlane() {
    HostRoutes routes = new HostRoutes(1, 3);
    assertEquals(List.of(new Change(2, SECONDARY)), routes.notified(2, PRIMARY));
    assertEquals(List.of(PRIMARY, PRIMARY, SECONDARY, PRIMARY), routes.snapshot());
  }

  @Test
  void shouldMoveEveryTargetWhenThisHostOrEveryHostLostAPlane() {
    HostRoutes own = new HostRoutes(1, 2);
    assertEquals(List.of(new Change(0, SECONDARY), new Change(1, SECONDARY), new Change(2, SECONDARY)),
        own.notified(1, PRIMARY));
    HostRoutes every = new HostRoutes(1, 2);
    assertEquals(3, every.notified(ControlWord.EVERY_HOST, SECONDARY).size());
    assertEquals(List.of(PRIMARY, PRIMARY, PRIMARY), every.snapshot());
  }

  @Test
  void shouldChangeNothingWhenANotificationIsRepeated() {
    HostRoutes routes = new HostRoutes(1, 3);
    routes.notified(2, PRIMARY);
    assertNull(routes.notified(2, PRIMARY), "a repeat is not applied again");
    assertEquals(List.of(new Change(2, PRIMARY)), routes.notified(2, SECONDARY), "the other plane's loss is news");
  }

  @Test
  void shouldListOnlyTheTargetsThatMovedWhenAPathTableArrives() {
    HostRoutes routes = new HostRoutes(1, 3);
    Map<Integer, Plane> planes = new LinkedHashMap<>();
    planes.put(3, SECONDARY);
    planes.put(0, PRIMARY);
    planes.put(2, SECONDARY);
    assertEquals(List.of(new Change(3, SECONDARY), new Change(2, SECONDARY)), routes.pathTable(planes));
    assertEquals(List.of(), routes.pathTable(planes), "the same table again moves nothing");
  }

  @Test
  void shouldReachTheMhThroughTheOtherPlaneWhenItsOwnPortFailed() {
    HostRoutes routes = new HostRoutes(1, 2);
    assertEquals(PRIMARY, routes.toMh(null));
    assertEquals(SECONDARY, routes.toMh(PRIMARY));
    routes.notified(ControlWord.EVERY_HOST, PRIMARY);
    assertEquals(SECONDARY, routes.toMh(null));
  }
}
