package io.rackfabric.fabric.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.management.TopologyDatabase.End;
import java.util.List;
import org.junit.jupiter.api.Test;

class DatabaseReplicaTest {

  private static final int MAX_PAYLOAD = 256;

  /** An endpoint (serial 1) on port 0 of a switch (serial 10) of {@code ports} ports, all up. */
  static TopologyDatabase fabric(int ports) {
    TopologyDatabase db = new TopologyDatabase();
    db.addDevice(new TopologyDatabase.Device(1, DeviceType.ENDPOINT, 1, 256, Route.local()));
    db.addPort(port(1, 0, DataLinkState.DL_ACTIVE));
    db.addDevice(new TopologyDatabase.Device(10, DeviceType.SWITCH, ports, 256, Route.local().then(0)));
    for (int p = 0; p < ports; p++) {
      db.addPort(port(10, p, DataLinkState.DL_ACTIVE));
    }
    db.addLink(new End(1, 0), new End(10, 0), Route.local().then(0));
    return db;
  }

  static TopologyDatabase.Port port(long serial, int number, DataLinkState state) {
    return new TopologyDatabase.Port(serial, number, PortKind.DOWNSTREAM, 1, 1, 1, 1, 1, state, state);
  }

  private static void deliver(List<FmDatabaseUpdate> messages, DatabaseReplica replica) {
    messages.forEach(replica::onUpdate);
  }

  static void assertSameContent(TopologyDatabase expected, TopologyDatabase actual) {
    assertEquals(expected.devices().stream().map(TopologyDatabase.Device::serial).toList(),
        actual.devices().stream().map(TopologyDatabase.Device::serial).toList());
    for (TopologyDatabase.Device d : expected.devices()) {
      assertEquals(expected.ports(d.serial()), actual.ports(d.serial()), "ports of " + d.serial());
    }
    assertEquals(expected.links(), actual.links());
  }

  @Test
  void shouldHoldThePrimarysDatabaseWhenAFullCopyAndThenDeltasArrive() {
    TopologyDatabase db = fabric(4);
    DatabaseShipper shipper = new DatabaseShipper(MAX_PAYLOAD);
    DatabaseReplica replica = new DatabaseReplica();
    List<FmDatabaseUpdate> full = shipper.changes(db);
    assertTrue(full.get(0).full());
    deliver(full, replica);
    assertTrue(replica.usable());
    assertSameContent(db, replica.copy());

    db.addPort(port(10, 2, DataLinkState.DL_INACTIVE)); // a port went down
    db.addDevice(new TopologyDatabase.Device(2, DeviceType.ENDPOINT, 1, 256, Route.local().then(0).then(3)));
    db.addPort(port(2, 0, DataLinkState.DL_ACTIVE));
    db.addLink(new End(10, 3), new End(2, 0), Route.local().then(0).then(3));
    List<FmDatabaseUpdate> delta = shipper.changes(db);
    assertEquals(1, delta.size());
    FmDatabaseUpdate d = delta.get(0);
    assertFalse(d.full());
    assertEquals(1, d.devices().size(), "only the new device");
    assertEquals(2, d.ports().size(), "the port that changed and the new device's");
    assertEquals(1, d.links().size(), "only the new link");
    assertEquals(FmDatabaseUpdate.FIXED_BYTES + 12 + 2 * 20 + 24, d.sizeBytes());
    deliver(delta, replica);
    assertTrue(replica.usable());
    assertSameContent(db, replica.copy());
    assertEquals(new DatabaseReplica.Counts(2, 2, 0, 0, 1), replica.counts());
    assertEquals(new DatabaseShipper.Counts(1, 1, 2, full.get(0).sizeBytes() + d.sizeBytes(), 0), shipper.counts());
  }

  @Test
  void shouldSendNothingWhenTheDatabaseDidNotChange() {
    TopologyDatabase db = fabric(4);
    DatabaseShipper shipper = new DatabaseShipper(MAX_PAYLOAD);
    shipper.changes(db);
    assertEquals(List.of(), shipper.changes(db));
    assertEquals(0, shipper.lastNumber());
  }

  @Test
  void shouldCutAnUpdateIntoNumberedMessagesWithinTheMaxPayloadWhenTheDatabaseIsLarge() {
    TopologyDatabase db = fabric(32);
    DatabaseShipper shipper = new DatabaseShipper(MAX_PAYLOAD);
    List<FmDatabaseUpdate> full = shipper.changes(db);
    assertTrue(full.size() > 1, "33 ports do not fit one message of 256 bytes");
    for (int i = 0; i < full.size(); i++) {
      FmDatabaseUpdate m = full.get(i);
      assertTrue(m.sizeBytes() <= MAX_PAYLOAD, "message " + i + " is " + m.sizeBytes() + " bytes");
      assertEquals(i, m.number());
      assertEquals(i, m.segment());
      assertEquals(full.size(), m.segments());
      assertTrue(m.full());
    }
    assertEquals(33, full.stream().mapToInt(m -> m.ports().size()).sum());
    DatabaseReplica replica = new DatabaseReplica();
    deliver(full.subList(0, full.size() - 1), replica);
    assertFalse(replica.usable(), "the copy's last message has not arrived");
    replica.onUpdate(full.get(full.size() - 1));
    assertTrue(replica.usable());
    assertSameContent(db, replica.copy());
  }

  @Test
  void shouldBeStaleAndAskOnceWhenAMessageIsMissing() {
    TopologyDatabase db = fabric(4);
    DatabaseShipper shipper = new DatabaseShipper(MAX_PAYLOAD);
    DatabaseReplica replica = new DatabaseReplica();
    deliver(shipper.changes(db), replica);
    db.addPort(port(10, 1, DataLinkState.DL_INACTIVE));
    shipper.changes(db); // lost on the way
    db.addPort(port(10, 2, DataLinkState.DL_INACTIVE));
    List<FmDatabaseUpdate> third = shipper.changes(db);
    assertTrue(replica.onUpdate(third.get(0)), "a gap: ask for a full copy");
    assertFalse(replica.usable());
    assertNull(replica.takeOver(10, 1), "a stale copy is not taken over");
    assertEquals(1, replica.expected() - third.get(0).number(), "expects the message after the one that came");
    db.addPort(port(10, 3, DataLinkState.DL_INACTIVE));
    shipper.changes(db); // lost too
    db.addPort(port(10, 1, DataLinkState.DL_ACTIVE));
    assertFalse(replica.onUpdate(shipper.changes(db).get(0)), "asked once already");
    assertEquals(2, replica.counts().gaps());
    assertEquals(1, replica.counts().resyncsAsked());
  }

  @Test
  void shouldSeeAGapWhenAHeartbeatCountsMoreMessagesThanArrived() {
    TopologyDatabase db = fabric(4);
    DatabaseShipper shipper = new DatabaseShipper(MAX_PAYLOAD);
    DatabaseReplica replica = new DatabaseReplica();
    assertFalse(replica.onHeartbeat(shipper.lastNumber()), "nothing sent yet");
    deliver(shipper.changes(db), replica);
    assertFalse(replica.onHeartbeat(shipper.lastNumber()));
    db.addPort(port(10, 1, DataLinkState.DL_INACTIVE));
    shipper.changes(db); // the last message, lost
    assertTrue(replica.usable(), "it cannot know yet");
    assertTrue(replica.onHeartbeat(shipper.lastNumber()));
    assertFalse(replica.usable());
  }

  @Test
  void shouldBeUsableAgainWhenAFullCopyFollowsTheRequestForOne() {
    TopologyDatabase db = fabric(4);
    DatabaseShipper shipper = new DatabaseShipper(MAX_PAYLOAD);
    DatabaseReplica replica = new DatabaseReplica();
    shipper.changes(db); // the first copy, lost
    db.addPort(port(10, 1, DataLinkState.DL_INACTIVE));
    assertTrue(replica.onUpdate(shipper.changes(db).get(0)));
    assertFalse(replica.usable(), "a delta without a full copy");
    shipper.resync();
    List<FmDatabaseUpdate> again = shipper.changes(db);
    assertTrue(again.get(0).full());
    deliver(again, replica);
    assertTrue(replica.usable());
    assertSameContent(db, replica.copy());
    assertEquals(1, shipper.counts().resyncsAsked());
    assertEquals(2, shipper.counts().fullCopies());
  }

  @Test
  void shouldNotBeUsableBeforeAnyCopyArrived() {
    DatabaseReplica replica = new DatabaseReplica();
    assertFalse(replica.usable());
    assertNull(replica.takeOver(1, 2));
  }

  @Test
  void shouldRefuseAMaxPayloadThatHoldsNoEntry() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new DatabaseShipper(40));
    assertTrue(e.getMessage().contains("maxPayload=40"), e.getMessage());
  }
}
