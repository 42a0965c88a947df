package io.rackfabric.fabric.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.address.AddressRange;
import java.util.List;
import org.junit.jupiter.api.Test;

class BarRegistersTest {

  static final int BAR0 = ConfigSpace.REG_BAR0;

  @Test
  void shouldReadSizeMaskAfterAllOnesAndKeepDecodingOldAddressWhenSizing() {
    BarRegisters bars = new BarRegisters(List.of(AddressRange.ofSize(0x8010_0000L, 1 << 20)), false);
    assertEquals(0x8010_0004, bars.read(BAR0));
    assertFalse(bars.write(BAR0, 0xFFFF_FFFF));
    assertFalse(bars.write(BAR0 + 1, 0xFFFF_FFFF));
    assertEquals(0xFFF0_0004, bars.read(BAR0), "1 MiB: address bits 20 and up, 64-bit type");
    assertEquals(0xFFFF_FFFF, bars.read(BAR0 + 1));
    assertEquals(List.of(AddressRange.ofSize(0x8010_0000L, 1 << 20)), bars.windows());
    // Restoring the original value ends sizing without moving anything.
    assertFalse(bars.write(BAR0, 0x8010_0000));
    assertFalse(bars.write(BAR0 + 1, 0));
    assertEquals(0x8010_0004, bars.read(BAR0));
    assertEquals(0, bars.read(BAR0 + 1));
  }

  @Test
  void shouldMaskWholeLowDwordAndMarkPrefetchableWhenBarIsLargerThan4GiB() {
    BarRegisters bars = new BarRegisters(List.of(AddressRange.ofSize(32L << 30, 32L << 30)), true);
    assertEquals(0x0000_000C, bars.read(BAR0), "32 GiB at 32 GiB: low dword zero, 64-bit prefetchable");
    assertEquals(8, bars.read(BAR0 + 1));
    bars.write(BAR0, 0xFFFF_FFFF);
    bars.write(BAR0 + 1, 0xFFFF_FFFF);
    long mask = ((long) bars.read(BAR0 + 1) << 32) | (bars.read(BAR0) & 0xFFFF_FFF0L);
    assertEquals(32L << 30, ~mask + 1);
  }

  @Test
  void shouldMoveDecodeWhenRealAddressIsWrittenDwordByDword() {
    BarRegisters bars = new BarRegisters(List.of(AddressRange.ofSize(0x1000_0000L, 0x1_0000),
        AddressRange.ofSize(0x2000_0000L, 0x1_0000)), false);
    assertTrue(bars.write(BAR0 + 2, 0x3000_0000));
    assertTrue(bars.write(BAR0 + 3, 0x1));
    assertEquals(List.of(AddressRange.ofSize(0x1000_0000L, 0x1_0000), AddressRange.ofSize(0x1_3000_0000L, 0x1_0000)),
        bars.windows());
    assertEquals(0x3000_0004, bars.read(BAR0 + 2));
    assertEquals(1, bars.read(BAR0 + 3));
  }

  @Test
  void shouldReadZeroAndIgnoreWritesWhenNoBarBacksTheRegister() {
    BarRegisters bars = new BarRegisters(List.of(AddressRange.ofSize(0x1000_0000L, 0x1000)), false);
    assertFalse(bars.write(BAR0 + 2, 0xFFFF_FFFF));
    assertEquals(0, bars.read(BAR0 + 2), "an unimplemented BAR sizes to zero");
    assertEquals(0, bars.read(ConfigSpace.REG_ID));
    assertFalse(bars.write(ConfigSpace.REG_COMMAND, 6));
  }

  @Test
  void shouldReportNextPowerOfTwoMaskWhenSizeIsNotOne() {
    assertEquals(-(1L << 32), BarRegisters.sizeMask(3L << 30));
    assertEquals(-(16L << 10), BarRegisters.sizeMask(16L << 10));
  }

  @Test
  void shouldIgnoreWriteThatWouldRunBarPast64Bits() {
    AddressRange bar = AddressRange.ofSize(0x4_0000_0000L, 16L << 30);
    BarRegisters bars = new BarRegisters(List.of(bar), true);
    assertFalse(bars.write(BAR0 + 1, 0xFFFF_FFFE), "16 GiB from 0xFFFF_FFFE_0000_0000 wraps");
    assertEquals(List.of(bar), bars.windows());
    assertEquals(4, bars.read(BAR0 + 1));
  }
}
