package io.rackfabric.host.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.host.controlplane.ControlPlaneHost.FenceTarget;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fencing's steps, driven by hand: no actor, no chip, the answers handed in. */
class FencingTest {

  static final long MS = 1_000_000L;

  /** VS1: ports 0 (the master's), 2 and 3; VS2: port 1 (the backup's). */
  static RoutingTable table() {
    AddressRange w = new AddressRange(0xD000_0000L, 0xDFFF_FFFFL);
    return new RoutingTable(List.of(
        new PortConfig("mmh", 0, PortRole.UPSTREAM, 1, new BridgeRegisters(0, 1, 3, w, null), null),
        new PortConfig("bmh", 1, PortRole.UPSTREAM, 2, new BridgeRegisters(0, 5, 5, null, null), null),
        new PortConfig("nic", 2, PortRole.DOWNSTREAM, 1, new BridgeRegisters(1, 2, 2, null, null), null),
        new PortConfig("ch1", 3, PortRole.DOWNSTREAM, 1, new BridgeRegisters(1, 3, 3, null, null), null)),
        List.of());
  }

  /** A chip where the BMH (port 1) fences the MMH keeping {@code keep}. */
  static FenceTarget target(Integer... keep) {
    return new FenceTarget(null, List.of(keep), 1);
  }

  /** {@link #table()} after the BMH's take-over: every port but the MMH's in VS2. */
  static RoutingTable fencedTable() {
    return new RoutingTable(table().ports().stream().map(p -> p.number() == 0 ? p
        : p.withVirtualSwitch(2)).toList(), List.of());
  }

  @Test
  void shouldMoveEveryVs1PortButTheMastersAtTheEndOfEachChipsUpdateWhenEveryChipAnswers() {
    Fencing f = new Fencing(List.of(target(0), target(0, 2)), 250 * MS, MS);
    assertEquals(new Fencing.ReadTable(0), f.start());
    assertEquals(new Fencing.MovePorts(0, List.of(2, 3), 2, 251 * MS), f.tableRead(0, table()));
    assertEquals(new Fencing.ReadTable(1), f.portsMoved(0, 2, true));
    assertEquals(251 * MS, f.now());
    assertEquals(new Fencing.MovePorts(1, List.of(3), 2, 252 * MS), f.tableRead(1, table()));
    assertEquals(new Fencing.Done(252 * MS, 3), f.portsMoved(1, 1, true));
  }

  @Test
  void shouldGoOnToTheNextChipWithoutTimeWhenAChipDoesNotAnswerOrHasNothingToMove() {
    Fencing f = new Fencing(List.of(target(0), target(0, 2, 3), target(0)), 10 * MS, MS);
    f.start();
    assertEquals(new Fencing.ReadTable(1), f.tableRead(0, null));
    assertEquals(new Fencing.ReadTable(2), f.tableRead(1, table()));
    f.tableRead(2, table());
    assertEquals(new Fencing.Done(10 * MS, 0), f.portsMoved(2, 2, false));
  }

  @Test
  void shouldMoveThePortsBackFromVs2ToVs1WhenTheOldMasterTakesOverFromTheBmhAgain() {
    // The MMH rejoined as backup of the BMH and takes over from it: it keeps the BMH's port (1) and
    // moves the rest into its own virtual switch.
    Fencing f = new Fencing(List.of(new FenceTarget(null, List.of(1), 0)), 40 * MS, MS);
    f.start();
    assertEquals(new Fencing.MovePorts(0, List.of(2, 3), 1, 41 * MS), f.tableRead(0, fencedTable()));
    assertEquals(new Fencing.Done(41 * MS, 2), f.portsMoved(0, 2, true));
  }

  @Test
  void shouldMoveNothingOnAChipWithoutTheNewMastersPort() {
    Fencing f = new Fencing(List.of(new FenceTarget(null, List.of(0), 9)), 5 * MS, MS);
    f.start();
    assertEquals(new Fencing.Done(5 * MS, 0), f.tableRead(0, table()));
  }

  @Test
  void shouldRefuseATargetWhoseOwnPortIsNegativeOrAKeptPort() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new FenceTarget(null, List.of(0), -1));
    assertEquals("ownPort=-1 is negative: the taking-over host's port", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> new FenceTarget(null, List.of(0, 1), 1));
    assertEquals("ownPort=1 is one of keepPorts=[0, 1]: the fenced master's ports", e.getMessage());
  }

  @Test
  void shouldBeDoneAtOnceWhenThereIsNoChipToFenceOn() {
    assertEquals(new Fencing.Done(7, 0), new Fencing(List.of(), 7, MS).start());
  }

  @Test
  void shouldRefuseANegativeReassignmentTime() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Fencing(List.of(), 0, -1));
    assertEquals("reassignmentNs=-1 is negative", e.getMessage());
  }
}
