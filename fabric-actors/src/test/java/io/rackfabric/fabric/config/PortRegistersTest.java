package io.rackfabric.fabric.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.ntb.NtbBar;
import io.rackfabric.fabric.ntb.NtbConfig;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.tlp.Bdf;
import java.util.List;
import org.junit.jupiter.api.Test;

class PortRegistersTest {

  static final PortConfig BRIDGE = new PortConfig("down", 3, PortRole.DOWNSTREAM, 1,
      new BridgeRegisters(1, 3, 4, null, new AddressRange(32L << 30, (96L << 30) - 1)), null);
  static final PortConfig NTB = new PortConfig("ch1", 1, PortRole.NTB, 1, null,
      new NtbConfig(Bdf.of(2, 0, 0),
          List.of(new NtbBar(AddressRange.ofSize(32L << 30, 32L << 30), 0)),
          List.of(new NtbBar(AddressRange.ofSize(32L << 30, 1L << 40), 0))));

  @Test
  void shouldKeepBothUpperHalvesWhenPrefetchWindowPassesThroughDisabledWhileBeingWritten() {
    PortRegisters regs = new PortRegisters(BRIDGE);
    // Linux's order: upper base first (the window is briefly base above limit), then the rest.
    PortConfig c = regs.write(ConfigSpace.REG_PREFETCH_BASE_UPPER, 0x100, false);
    assertNull(c.bridge().prefetchable(), "base 1 TiB + 32 GiB above limit 96 GiB: disabled");
    assertEquals(0x100, regs.read(ConfigSpace.REG_PREFETCH_BASE_UPPER, false), "reads back what was written");
    regs.write(ConfigSpace.REG_PREFETCH, 0xFFF0_0000, false);
    c = regs.write(ConfigSpace.REG_PREFETCH_LIMIT_UPPER, 0x10F, false);
    assertEquals(new AddressRange(0x100_0000_0000L, 0x10F_FFFF_FFFFL), c.bridge().prefetchable());
    assertEquals(regs.current(), c);
  }

  @Test
  void shouldKeepExactWindowsWhenOnlyBusNumbersAreWritten() {
    PortConfig odd = BRIDGE.withBridge(BRIDGE.bridge().withMemory(new AddressRange(0x9_0000L, 0xE_FFFFL)));
    PortRegisters regs = new PortRegisters(odd);
    PortConfig c = regs.write(ConfigSpace.REG_BUSES, 1 | (5 << 8) | (7 << 16), false);
    assertEquals(new BridgeRegisters(1, 5, 7, odd.bridge().memory(), odd.bridge().prefetchable()), c.bridge());
    assertNull(regs.write(ConfigSpace.REG_BUSES, 1 | (5 << 8) | (7 << 16), false), "same value: no change");
  }

  @Test
  void shouldStayAheadOfTableUntilTableReflectsEveryOwnWrite() {
    PortRegisters regs = new PortRegisters(BRIDGE);
    PortConfig first = regs.write(ConfigSpace.REG_BUSES, 1 | (3 << 8) | (9 << 16), false);
    PortConfig second = regs.write(ConfigSpace.REG_MEMORY, 0xE010_E000, false);
    // The chip publishes the first write while the second is on its way: keep the second.
    assertEquals(second, regs.adopt(first));
    assertEquals(0xE010_E000, regs.read(ConfigSpace.REG_MEMORY, false));
    // A reassignment by the chip changes only the virtual switch.
    assertEquals(second.withVirtualSwitch(2), regs.adopt(first.withVirtualSwitch(2)));
    assertSame(second.withVirtualSwitch(2).bridge(), regs.adopt(second.withVirtualSwitch(2)).bridge());
    // Caught up: a later change by someone else is taken as it is.
    assertSame(BRIDGE, regs.adopt(BRIDGE));
    assertEquals(ConfigSpace.readPort(BRIDGE, ConfigSpace.REG_BUSES), regs.read(ConfigSpace.REG_BUSES, false));
  }

  @Test
  void shouldSizeAndMoveEachNtbSideIndependently() {
    PortRegisters regs = new PortRegisters(NTB);
    int bar0 = ConfigSpace.REG_BAR0;
    assertNull(regs.write(bar0 + 1, 0xFFFF_FFFF, true), "sizing changes no routing");
    assertEquals(0xFFFF_FF00, regs.read(bar0 + 1, true), "1 TiB virtual-side window");
    assertEquals(8, regs.read(bar0 + 1, false), "the link side is not being sized");
    regs.write(bar0 + 1, 8, true);
    PortConfig moved = regs.write(bar0 + 1, 0x10, false);
    assertEquals(AddressRange.ofSize(64L << 30, 32L << 30), moved.ntb().linkBars().get(0).window());
    assertEquals(0, moved.ntb().linkBars().get(0).translatedBase(), "translation stays");
    assertEquals(NTB.ntb().virtualBars(), moved.ntb().virtualBars());
    assertEquals((ConfigSpace.DEVICE_NTB << 16) | ConfigSpace.VENDOR_PLX, regs.read(ConfigSpace.REG_ID, true));
  }

  @Test
  void shouldKeepAnOverlappingNtbBarInItsRegisterAndRouteItOnceTheOtherBarMoves() {
    PortConfig two = new PortConfig("ntb", 2, PortRole.NTB, 1, null, new NtbConfig(Bdf.of(1, 0, 0),
        List.of(new NtbBar(AddressRange.ofSize(0x1000_0000L, 0x10_0000), 0),
            new NtbBar(AddressRange.ofSize(0x2000_0000L, 0x10_0000), 0x40_0000)), List.of()));
    PortRegisters regs = new PortRegisters(two);
    // BAR2 onto BAR0: the NTB cannot decode that, so routing stays, but the register reads back.
    assertNull(regs.write(ConfigSpace.REG_BAR0 + 2, 0x1000_0000, false));
    assertEquals(0x1000_000C, regs.read(ConfigSpace.REG_BAR0 + 2, false));
    assertSame(two, regs.current());
    // BAR0 moves away: both take effect, translations kept.
    PortConfig moved = regs.write(ConfigSpace.REG_BAR0, 0x3000_0000, false);
    assertEquals(List.of(new NtbBar(AddressRange.ofSize(0x3000_0000L, 0x10_0000), 0),
        new NtbBar(AddressRange.ofSize(0x1000_0000L, 0x10_0000), 0x40_0000)), moved.ntb().linkBars());
  }
}
