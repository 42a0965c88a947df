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
}
