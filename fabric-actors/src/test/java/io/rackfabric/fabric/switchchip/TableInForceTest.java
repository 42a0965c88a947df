package io.rackfabric.fabric.switchchip;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.RoutingTable;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The port-side rule of a reassignment stamped with its model time, step by step. */
class TableInForceTest {

  private static final RoutingTable TABLE = PortConfigurationTest.TABLE;

  private static int vs(TableInForce t, int port) {
    return t.table().port(port).virtualSwitch();
  }

  @Test
  void shouldKeepTheOldTableBeforeTheMoveIsDueAndTheNewOneFromItsTimeOn() {
    TableInForce t = new TableInForce(TABLE);
    t.schedule(1_000, List.of(1, 2), 2);

    assertFalse(t.reach(999), "one ns before: nothing changes");
    assertEquals(1, vs(t, 1));
    assertEquals(1, t.pending());

    assertTrue(t.reach(1_000), "at exactly the effective time the move is in force");
    assertEquals(2, vs(t, 1));
    assertEquals(2, vs(t, 2));
    assertEquals(1, vs(t, 0), "a port the move does not name stays");
    assertEquals(0, t.pending());
    assertFalse(t.reach(5_000), "applied once");
  }

  @Test
  void shouldApplyMovesInEffectiveOrderThenArrivalOrderWhenSeveralArePending() {
    TableInForce t = new TableInForce(TABLE);
    t.schedule(2_000, List.of(1), 1); // back again, later: arrived first
    t.schedule(1_000, List.of(1), 2);
    t.schedule(3_000, List.of(2), 2);
    t.schedule(3_000, List.of(2), 1); // same time: the later arrival wins

    assertTrue(t.reach(1_500));
    assertEquals(2, vs(t, 1));
    assertTrue(t.reach(2_000));
    assertEquals(1, vs(t, 1));
    assertFalse(t.reach(3_000), "port 2 went to VS2 and back at 3,000: no change in force");
    assertEquals(1, vs(t, 2));
    assertEquals(0, t.pending());
  }

  @Test
  void shouldHoldAPendingPortsVirtualSwitchWhenATableIsPublishedAtOnce() {
    TableInForce t = new TableInForce(TABLE);
    t.schedule(1_000, List.of(1), 2);
    // The chip's table already holds the move, and a configuration write to port 2's bridge.
    PortConfig b = TABLE.port(2);
    PortConfig written = b.withBridge(new BridgeRegisters(1, 3, 4, AddressRange.ofSize(0x1100_0000L, 0x100_0000L), null));
    RoutingTable chip = TABLE.withPort(TABLE.port(1).withVirtualSwitch(2)).withPort(written);

    RoutingTable inForce = t.published(chip);

    assertEquals(1, inForce.port(1).virtualSwitch(), "the move is not due yet");
    assertEquals(written, inForce.port(2), "the configuration write is in force at once");
    assertTrue(t.reach(1_000));
    assertEquals(2, vs(t, 1));
    assertEquals(written, t.table().port(2));
  }

  @Test
  void shouldAdoptAPublishedTableWholeWhenNothingIsPending() {
    TableInForce t = new TableInForce(TABLE);
    RoutingTable moved = TABLE.withPort(TABLE.port(4).withVirtualSwitch(2));

    assertEquals(moved, t.published(moved));
  }

  @Test
  void shouldSkipAPortTheTableLacksWhenAMoveNamesIt() {
    TableInForce t = new TableInForce(TABLE);
    t.schedule(10, List.of(7, 1), 2);

    assertTrue(t.reach(10));
    assertEquals(2, vs(t, 1));
    assertEquals(null, t.table().port(7));
  }

  @Test
  void shouldKeepTheFabricManagersWindowsWhenTheChipPublishesATableWithoutThem() {
    TableInForce t = new TableInForce(TABLE);
    io.rackfabric.fabric.ntb.NtbBar written =
        new io.rackfabric.fabric.ntb.NtbBar(AddressRange.ofSize(0x40_0000_0000L, 1L << 30), 0);
    var order = new io.rackfabric.fabric.management.ManagementAgent.WindowOrder(4, List.of(written), List.of());
    assertTrue(t.windows(order));
    assertTrue(t.table().port(4).claimsAddress(0x40_0000_0000L));
    assertFalse(t.windows(order), "the same windows again change nothing");

    // a configuration write elsewhere: the chip's table, sent before it learnt of the windows
    RoutingTable published = TABLE.withPort(TABLE.port(1).withAcsRedirect(true));
    t.published(published);
    assertTrue(t.table().port(4).claimsAddress(0x40_0000_0000L), "the windows in force stay");
    assertEquals(List.of(), t.table().port(4).ntb().virtualBars());
    assertTrue(t.table().port(1).acsRedirect(), "the rest of the published table is taken");
  }
}
