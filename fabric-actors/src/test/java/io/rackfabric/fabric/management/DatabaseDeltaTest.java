package io.rackfabric.fabric.management;

import static io.rackfabric.fabric.management.DatabaseReplicaTest.assertSameContent;
import static io.rackfabric.fabric.management.DatabaseReplicaTest.fabric;
import static io.rackfabric.fabric.management.DatabaseReplicaTest.port;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.management.TopologyDatabase.End;
import java.util.List;
import org.junit.jupiter.api.Test;

class DatabaseDeltaTest {

  /** {@link DatabaseReplicaTest#fabric} with a second endpoint (serial 2) on the switch's port 1. */
  private static TopologyDatabase withSecondEndpoint() {
    TopologyDatabase db = fabric(4);
    db.addDevice(new TopologyDatabase.Device(2, DeviceType.ENDPOINT, 1, 256, Route.local().then(0).then(1)));
    db.addPort(port(2, 0, DataLinkState.DL_ACTIVE));
    db.addLink(new End(2, 0), new End(10, 1), Route.local().then(0));
    return db;
  }

  @Test
  void shouldCarryARemovalWhenTheDatabaseRemovedADevice() {
    TopologyDatabase db = withSecondEndpoint();
    DatabaseShipper shipper = new DatabaseShipper(256);
    DatabaseDelta full = shipper.delta(db);
    db.addPort(port(10, 1, DataLinkState.DL_INACTIVE)); // the switch's port toward endpoint 2 went down
    assertEquals(List.of(2L), db.removeDetached(1));
    DatabaseDelta delta = shipper.delta(db);
    assertFalse(delta.full());
    assertEquals(List.of(2L), delta.removed());
    assertEquals(1, delta.ports().size(), "the switch's port that went down");
    assertTrue(delta.devices().isEmpty() && delta.links().isEmpty());
    assertSameContent(db.rerooted(1, -1), full.then(delta).toDatabase().rerooted(1, -1));
    assertNull(shipper.delta(db), "nothing changed since");
  }

  @Test
  void shouldSendARemovedDeviceAgainWhenItComesBack() {
    TopologyDatabase db = withSecondEndpoint();
    DatabaseShipper shipper = new DatabaseShipper(256);
    DatabaseDelta kept = shipper.delta(db);
    db.addPort(port(10, 1, DataLinkState.DL_INACTIVE));
    db.removeDetached(1);
    kept = kept.then(shipper.delta(db));
    TopologyDatabase back = withSecondEndpoint(); // a rediscovery found it again
    DatabaseDelta again = shipper.delta(back);
    assertEquals(List.of(2L), again.devices().stream().map(TopologyDatabase.Device::serial).toList());
    assertEquals(1, again.links().size());
    assertSameContent(back.rerooted(1, -1), kept.then(again).toDatabase().rerooted(1, -1));
  }

  @Test
  void shouldApplyARemovalToTheSecondarysCopyWhenItCameOverTheFabric() {
    TopologyDatabase db = withSecondEndpoint();
    DatabaseShipper shipper = new DatabaseShipper(256);
    DatabaseReplica replica = new DatabaseReplica();
    shipper.changes(db).forEach(replica::onUpdate);
    db.addPort(port(10, 1, DataLinkState.DL_INACTIVE));
    db.removeDetached(1);
    List<FmDatabaseUpdate> delta = shipper.changes(db);
    assertEquals(FmDatabaseUpdate.FIXED_BYTES + FmDatabaseUpdate.REMOVED_BYTES + FmDatabaseUpdate.PORT_BYTES,
        delta.get(0).sizeBytes(), "one removal and one port");
    delta.forEach(replica::onUpdate);
    assertTrue(replica.usable());
    assertFalse(replica.copy().knows(2));
    assertSameContent(db.rerooted(1, -1), replica.copy().rerooted(1, -1));
  }

  @Test
  void shouldGiveTheNextFullCopyWhenOneFollows() {
    DatabaseDelta first = new DatabaseShipper(256).delta(fabric(2));
    DatabaseDelta second = new DatabaseShipper(256).delta(withSecondEndpoint());
    assertEquals(second, first.then(second));
    assertTrue(DatabaseDelta.none().full() && !DatabaseDelta.none().isEmpty());
  }
}
