package io.rackfabric.host.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LoanInterruptMapTest {

  /** The lending-b2b disk's window: device-side 48 GiB lands at the borrower's 0. */
  private static final long DEVICE_SIDE = 48L << 30;
  private static final long SIZE = 16L << 30;

  @Test
  void shouldProgramEachVectorWithTheWindowsDeviceSideAddressWhenTheLoanIsMade() {
    LoanInterruptMap map = new LoanInterruptMap(DEVICE_SIDE, SIZE, 0);
    assertEquals(DEVICE_SIDE + 0x2_0002_0000L, map.map(0, 0x2_0002_0000L));
    map.map(1, 0x2_0002_0004L);
    MsixTable table = new MsixTable(4);
    assertTrue(map.programInto(table, 0x100));
    assertEquals(DEVICE_SIDE + 0x2_0002_0004L, table.address(1));
    assertEquals(0x101, table.data(1));
    assertFalse(table.masked(1));
    assertTrue(table.masked(2));
  }

  @Test
  void shouldDeliverEachVectorAtItsBorrowerWordWhenRaised() {
    LoanInterruptMap map = new LoanInterruptMap(DEVICE_SIDE, SIZE, 0);
    map.map(0, 0x2_0002_0000L);
    map.map(3, 0x2_0002_000CL);
    MsixTable table = new MsixTable(4);
    map.programInto(table, 0);
    assertEquals(new LoanInterruptMap.Delivered(3, DEVICE_SIDE + 0x2_0002_000CL, 0x2_0002_000CL, 3),
        map.deliver(table, 3));
    assertEquals(0x2_0002_0000L, map.deliver(table, 0).borrowerAddress());
  }

  @Test
  void shouldCountADenialWhenTheLoanHasNoReverseMsiMapping() {
    LoanInterruptMap map = new LoanInterruptMap(DEVICE_SIDE, SIZE, 0);
    MsixTable table = new MsixTable(2);
    table.program(0, DEVICE_SIDE + 0x1000, 0, false);
    assertNull(map.deliver(table, 0));
    assertEquals(1, map.noMsiPathDenials());
  }

  @Test
  void shouldCountADenialWhenTheVectorIsMaskedOrOutsideTheTable() {
    LoanInterruptMap map = new LoanInterruptMap(DEVICE_SIDE, SIZE, 0);
    map.map(0, 0x1000);
    map.map(5, 0x1004);
    MsixTable table = new MsixTable(2);
    assertFalse(map.programInto(table, 0));
    assertNull(map.deliver(table, 5));
    table.write(MsixTable.VECTOR_CONTROL, MsixTable.MASK);
    assertNull(map.deliver(table, 0));
    assertEquals(2, map.withheldDenials());
  }

  @Test
  void shouldCountADenialWhenTheTableSendsOutsideTheWindow() {
    LoanInterruptMap map = new LoanInterruptMap(DEVICE_SIDE, SIZE, 0);
    map.map(0, 0x1000);
    MsixTable table = new MsixTable(1);
    table.program(0, 0x1000, 0, false);
    assertNull(map.deliver(table, 0));
    assertEquals(1, map.outsideWindowDenials());
  }

  @Test
  void shouldRefuseAWordTheWindowDoesNotReachOrUnaligned() {
    LoanInterruptMap map = new LoanInterruptMap(DEVICE_SIDE, 0x1_0000, 0x4000_0000L);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> map.map(0, 0x1000));
    assertTrue(e.getMessage().contains("0x1000"));
    assertThrows(IllegalArgumentException.class, () -> map.map(0, 0x4000_FFFEL));
    assertThrows(IllegalArgumentException.class, () -> map.map(0, 0x4001_0000L));
    assertThrows(IllegalArgumentException.class, () -> map.map(-1, 0x4000_0000L));
    assertFalse(map.maps(0));
  }
}
