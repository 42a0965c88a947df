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
  @Test
  void shouldRemoveADeviceWithItsLinkWhenEveryLinkOfItIsDownAtOneEnd() {
    TopologyDatabase db = found();
    assertEquals(List.of(3L), db.removeDetached(1), "endpoint 3: its one link is down at switch 20");
    assertFalse(db.knows(3));
    assertTrue(db.ports(3).isEmpty());
    assertFalse(db.linked(new End(20, 1)), "its link went with it");
    assertEquals(3, db.links().size());
    assertTrue(db.knows(20), "switch 20 still has a link up");
    assertEquals(List.of(), db.removeDetached(1), "nothing more detached");
  }

  @Test
  void shouldKeepADeviceCutOffBehindADownLinkWhenAnotherOfItsLinksWasReadUp() {
    TopologyDatabase db = found();
    db.addPort(port(20, 1, DataLinkState.DL_ACTIVE)); // endpoint 3 up behind switch 20
    db.addPort(port(3, 0, DataLinkState.DL_ACTIVE));
    db.addPort(port(10, 1, DataLinkState.DL_INACTIVE)); // switch 10 re-read: its port to 20 went down
    assertEquals(List.of(), db.removeDetached(1), "20 and 3 cut off, but their link was read up: kept as last read");
    assertTrue(db.knows(20));
    db.addPort(port(10, 2, DataLinkState.DL_INACTIVE));
    assertEquals(List.of(2L), db.removeDetached(1), "endpoint 2's one link down at switch 10");
    assertEquals(List.of(1L, 10L, 20L, 3L), db.devices().stream().map(TopologyDatabase.Device::serial).toList());
  }

  @Test
  void shouldNeverRemoveItsOwnDeviceWhenItsLinkIsDown() {
    TopologyDatabase db = found();
    db.addPort(port(1, 0, DataLinkState.DL_INACTIVE));
    assertEquals(List.of(3L), db.removeDetached(1), "switch 10 has links up to 20 and 2");
    assertTrue(db.knows(1));
  }
}
