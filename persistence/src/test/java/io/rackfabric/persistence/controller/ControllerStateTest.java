package io.rackfabric.persistence.controller;

import static io.rackfabric.persistence.controller.SampleRack.GIB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.persistence.controller.ControllerEvent.DeviceRemoved;
import io.rackfabric.persistence.controller.ControllerEvent.HostRemoved;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ControllerStateTest {

  private final List<ControllerEvent> events = new ArrayList<>();
  private final ControllerState rack = SampleRack.expected(events);

  @Test
  void shouldHoldEveryPartOfThePcieStateWhenEventsAreFolded() {
    assertEquals(Optional.of("mmh"), rack.enumeratedRoot());
    assertTrue(rack.templateTaken());
    assertEquals(8_000, rack.templateAt());
    assertEquals(Map.of(0, "ch2", 1, "ch2"), rack.vfs("nic0"));
    assertEquals(PfDriverState.READY, rack.driver("nic0").get().state());
    assertEquals(Optional.of(PagePermission.WRITE), rack.permission("ch1", 0x0400, 32 * GIB + 4096));
    assertEquals(Optional.empty(), rack.permission("ch1", 0x0200, 32 * GIB));
    assertEquals(1, rack.openPages("ch1"));
    assertEquals(32 * GIB, rack.window("ntb1", 2).get().translatedBase());
    assertEquals(0x0100,
        rack.requesterId("ntb1", RequesterIdDirection.TO_LINK, 0).get().original());
    assertEquals(16_000, rack.modelNow());
  }

  @Test
  void shouldLeaveEarlierStateUnchangedWhenAnEventIsApplied() {
    ControllerState before = SampleRack.expected(new ArrayList<>());
    ControllerState after = rack.apply(new HostRemoved("ch2", 20_000));
    assertEquals(before, rack);
    assertNotEquals(before, after);
  }

  @Test
  void shouldDropHostsIommuTableAndVfsWhenHostIsRemoved() {
    ControllerState s = rack.apply(new HostRemoved("ch2", 20_000)).apply(new HostRemoved("ch1", 20_000));
    assertEquals(Map.of(), s.vfs("nic0"));
    assertEquals(0, s.openPages("ch1"));
    assertTrue(s.hosts().isEmpty());
  }

  @Test
  void shouldDropWindowsAndIdsWhenNtbIsRemoved() {
    ControllerState s = rack.apply(new DeviceRemoved("ntb1", 20_000));
    assertTrue(s.window("ntb1", 2).isEmpty());
    assertTrue(s.requesterId("ntb1", RequesterIdDirection.TO_LINK, 0).isEmpty());
  }

  @Test
  void shouldRebuildEqualStateWhenReadBackFromSnapshot() {
    assertEquals(rack, ControllerState.fromSnapshot(rack.toSnapshot()));
    // Every intermediate state too, including ones with empty inner tables.
    ControllerState s = ControllerState.empty();
    for (ControllerEvent e : events) {
      s = s.apply(e);
      assertEquals(s, ControllerState.fromSnapshot(s.toSnapshot()), "after " + e);
    }
  }

  /** A switch (serial 10) and an endpoint (serial 1) on its port 0, as a fabric manager recorded them. */
  private static io.rackfabric.fabric.management.DatabaseDelta twoDevices() {
    var link = io.rackfabric.fabric.management.TopologyDatabase.Link.of(
        new io.rackfabric.fabric.management.TopologyDatabase.End(1, 0),
        new io.rackfabric.fabric.management.TopologyDatabase.End(10, 0));
    return new io.rackfabric.fabric.management.DatabaseDelta(true, List.of(
        new io.rackfabric.fabric.management.TopologyDatabase.Device(1,
            io.rackfabric.fabric.management.DeviceType.ENDPOINT, 1, 256, io.rackfabric.fabric.management.Route.local()),
        new io.rackfabric.fabric.management.TopologyDatabase.Device(10,
            io.rackfabric.fabric.management.DeviceType.SWITCH, 4, 256, io.rackfabric.fabric.management.Route.local())),
        List.of(), List.of(link), List.of());
  }

  @Test
  void shouldFoldTheFabricManagersChangesIntoOneFullCopyWhenDeltasFollowIt() {
    ControllerState s = rack.apply(new ControllerEvent.FabricDatabaseRecorded("mmh", twoDevices(), 21_000, 60_000));
    var removal = new io.rackfabric.fabric.management.DatabaseDelta(false, List.of(), List.of(), List.of(), List.of(1L));
    s = s.apply(new ControllerEvent.FabricDatabaseRecorded("mmh", removal, 30_800, 60_000));
    var db = s.fabricDatabase().orElseThrow();
    assertTrue(db.full());
    assertEquals(List.of(10L), db.devices().stream().map(d -> d.serial()).toList(), "the endpoint removed");
    assertTrue(db.links().isEmpty(), "its link with it");
    assertEquals(Optional.of("mmh"), s.fabricManager());
    assertEquals(s, ControllerState.fromSnapshot(s.toSnapshot()), "carried by the snapshot");
    assertEquals(Optional.empty(), rack.fabricDatabase());
  }

  @Test
  void shouldRefuseAFabricDeltaWhenNoFullCopyWasRecorded() {
    var delta = new io.rackfabric.fabric.management.DatabaseDelta(false, List.of(), List.of(), List.of(), List.of(1L));
    Decision d = ControllerRules.decide(rack, new Controller.RecordFabricDatabase("mmh", delta, 1, 1, null));
    assertTrue(d.error() != null && d.error().contains("no full copy was recorded"), d.toString());
    Decision blank = ControllerRules.decide(rack, new Controller.RecordFabricDatabase(" ", twoDevices(), 1, 1, null));
    assertTrue(blank.error() != null && blank.error().contains("manager= "), blank.toString());
  }
}
