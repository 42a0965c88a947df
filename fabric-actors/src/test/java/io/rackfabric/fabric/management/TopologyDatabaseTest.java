package io.rackfabric.fabric.management;

import static io.rackfabric.fabric.management.DatabaseReplicaTest.port;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.management.TopologyDatabase.End;
import java.util.List;
import org.junit.jupiter.api.Test;

class TopologyDatabaseTest {

  /**
   * As a primary on endpoint 1 found it: 1 -- sw 10 (port 0); sw 10 port 1 -- sw 20 port 0;
   * sw 10 port 2 -- endpoint 2 (the secondary); sw 20 port 1 -- endpoint 3, whose link is down.
   */
  private static TopologyDatabase found() {
    TopologyDatabase db = new TopologyDatabase();
    Route r10 = Route.local().then(0);
    db.addDevice(new TopologyDatabase.Device(1, DeviceType.ENDPOINT, 1, 256, Route.local()));
    db.addDevice(new TopologyDatabase.Device(10, DeviceType.SWITCH, 3, 256, r10));
    db.addDevice(new TopologyDatabase.Device(20, DeviceType.SWITCH, 2, 256, r10.then(1)));
    db.addDevice(new TopologyDatabase.Device(2, DeviceType.ENDPOINT, 1, 256, r10.then(2)));
    db.addDevice(new TopologyDatabase.Device(3, DeviceType.ENDPOINT, 1, 256, r10.then(1).then(1)));
    for (long ep : new long[] {1, 2}) {
      db.addPort(port(ep, 0, DataLinkState.DL_ACTIVE));
    }
    db.addPort(port(3, 0, DataLinkState.DL_INACTIVE));
    for (int p = 0; p < 3; p++) {
      db.addPort(port(10, p, DataLinkState.DL_ACTIVE));
    }
    db.addPort(port(20, 0, DataLinkState.DL_ACTIVE));
    db.addPort(port(20, 1, DataLinkState.DL_INACTIVE));
    db.addLink(new End(1, 0), new End(10, 0), r10);
    db.addLink(new End(10, 1), new End(20, 0), r10.then(1));
    db.addLink(new End(10, 2), new End(2, 0), r10.then(2));
    db.addLink(new End(20, 1), new End(3, 0), r10.then(1).then(1));
    return db;
  }

  @Test
  void shouldRouteFromTheNewRootAndLeaveOutTheDeadDeviceWhenRerooted() {
    TopologyDatabase db = found().rerooted(2, 1);
    assertEquals(List.of(2L, 10L, 20L), db.devices().stream().map(TopologyDatabase.Device::serial).toList());
    assertEquals(Route.local(), db.device(2).orElseThrow().route());
    assertEquals(List.of(0), db.device(10).orElseThrow().route().turns());
    assertEquals(List.of(0, 1), db.device(20).orElseThrow().route().turns());
    assertFalse(db.knows(1), "the dead primary");
    assertFalse(db.knows(3), "behind a port that is down: a discovery would not find it");
    assertEquals(2, db.links().size(), "the links between devices it holds");
    assertEquals(found().ports(20), db.ports(20));
    assertTrue(db.problems().isEmpty());
  }

  @Test
  void shouldNameTheDevicesLinkedToADeviceWhenAskedForItsNeighbors() {
    assertEquals(List.of(1L, 20L, 2L), found().neighbors(10));
    assertEquals(List.of(10L), found().neighbors(1));
  }

  @Test
  void shouldBeEmptyWhenRerootedAtADeviceItDoesNotKnow() {
    assertTrue(found().rerooted(99, 1).devices().isEmpty());
    assertTrue(found().rerooted(1, 1).devices().isEmpty());
  }
}
