package io.rackfabric.host.enumeration;

import static io.rackfabric.host.enumeration.EnumeratorTest.APERTURES;
import static io.rackfabric.host.enumeration.EnumeratorTest.GIB;
import static io.rackfabric.host.enumeration.EnumeratorTest.MIB;
import static io.rackfabric.host.enumeration.EnumeratorTest.bridgeAt;
import static io.rackfabric.host.enumeration.EnumeratorTest.buses;
import static io.rackfabric.host.enumeration.FakeDomain.memory;
import static io.rackfabric.host.enumeration.FakeDomain.ntbSide;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.tlp.Bdf;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Slot-based allocation (Multi-peer Figs. 4 and 6) and hot add/remove over fake domains. */
class SlotEnumerationTest {

  /** Multi-peer Fig. 4: 16 slots of 1 MiB from 0x80000000, one bus each (Fig. 6). */
  static final SlotGroup FIG4 = SlotGroup.uniform("slots", "00.0", 1, 16, 1, 0x8000_0000L, MIB, false);
  static final SlotAllocation SLOTS = new SlotAllocation(APERTURES, List.of(FIG4));

  /** A 16-slot switch with EP processors (1 MiB BAR each) in slots 1, 2, 3 and 16. */
  static FakeDomain multipeer() {
    FakeDomain.Switch sw = new FakeDomain.Switch();
    for (int slot = 1; slot <= 16; slot++) {
      sw.port(slot, slot <= 3 || slot == 16 ? memory(MIB) : null);
    }
    return new FakeDomain(sw);
  }

  static FakeDomain.Switch top(FakeDomain d) {
    return (FakeDomain.Switch) d.top;
  }

  @Test
  void shouldGiveEverySlotItsBusAndBlockOccupiedOrNotWhenSlotMode() {
    FakeDomain d = multipeer();
    EnumerationResult r = d.run(Enumerator.enumerate("rc", SLOTS));
    assertEquals(List.of(), r.problems());
    assertEquals(buses(0, 1, 17), bridgeAt(r, "00.0"));
    assertEquals(new AddressRange(0x8000_0000L, 0x80FF_FFFFL), bridgeAt(r, "00.0").memory());
    for (int slot = 1; slot <= 16; slot++) {
      long base = 0x8000_0000L + (slot - 1) * MIB;
      // Fig. 6: slot k's bridge has primary 1, secondary = subordinate = k + 1, the slot's range.
      assertEquals(buses(1, slot + 1, slot + 1), bridgeAt(r, String.format("00.0/%02x.0", slot)), "slot " + slot);
      assertEquals(AddressRange.ofSize(base, MIB), top(d).down.get(slot).bridge().memory(), "slot " + slot);
    }
    // "Bus number 4 is used, and memory address 0x80200000 is programmed into the BAR of an EP
    // processor when an EP processor is plugged into slot 3."
    FunctionNode epp3 = r.at("00.0/03.0/00.0").orElseThrow();
    assertEquals(Bdf.of(4, 0, 0), epp3.bdf());
    assertEquals(0x8020_0000L, epp3.bars().get(0).base());
    assertEquals(0x80F0_0000L, r.at("00.0/10.0/00.0").orElseThrow().bars().get(0).base(), "slot 16");
    assertEquals(16, r.slots().size());
    assertEquals(List.of(1, 2, 3, 16), r.slots().stream().filter(SlotReservation::occupied).map(SlotReservation::slot).toList());
    SlotReservation five = r.slot(5).get(0);
    assertEquals(new SlotReservation("slots", 5, Bdf.of(1, 5, 0), 6, 6, AddressRange.ofSize(0x8040_0000L, MIB), false), five);
  }

  @Test
  void shouldPackSlotsInDynamicModeSoTheLastProcessorMovesWhenAnotherIsAdded() {
    FakeDomain d = multipeer();
    EnumerationResult r = d.run(Enumerator.enumerate("rc", new DynamicAllocation(APERTURES)));
    assertEquals(0x8030_0000L, r.at("00.0/10.0/00.0").orElseThrow().bars().get(0).base(), "right after slot 3's");
    assertNull(bridgeAt(r, "00.0/05.0").memory(), "an empty slot keeps no window");
    top(d).down.get(5).below = memory(MIB);
    EnumerationResult again = d.run(Enumerator.enumerate("rc", new DynamicAllocation(APERTURES)));
    assertEquals(0x8040_0000L, again.at("00.0/10.0/00.0").orElseThrow().bars().get(0).base(), "slot 16 moved");
  }

  @Test
  void shouldTouchOnlyTheSlotAndKeepEveryOtherNumberWhenAHostIsAddedThenRemoved() {
    FakeDomain d = multipeer();
    EnumerationResult before = d.run(Enumerator.enumerate("rc", SLOTS));
    top(d).down.get(5).below = memory(MIB);
    d.log.clear();

    EnumerationResult added = d.run(Enumerator.rescanSlot(before, SLOTS, 5));
    assertEquals(List.of(), added.problems());
    FunctionNode epp5 = added.at("00.0/05.0/00.0").orElseThrow();
    assertEquals(Bdf.of(6, 0, 0), epp5.bdf(), "the pre-assigned bus");
    assertEquals(0x8040_0000L, epp5.bars().get(0).base(), "the pre-assigned block");
    assertEquals(List.of(AddressRange.ofSize(0x8040_0000L, MIB)), ((FakeDomain.Endpoint) top(d).down.get(5).below).windows());
    assertTrue(added.slot(5).get(0).occupied());
    assertTrue(d.log.stream().allMatch(op -> Bdf.bus(op.target()) == 6
            || op.target() == Bdf.of(1, 5, 0)),
        "only slot 5's bus and its port are addressed: " + d.log);
    assertEquals(d.log.size(), added.configRequests());
    assertSameOutside(before, added, "00.0/05.0/00.0");

    top(d).down.get(3).below = null;
    EnumerationResult removed = d.run(Enumerator.rescanSlot(added, SLOTS, 3));
    assertTrue(removed.at("00.0/03.0/00.0").isEmpty());
    assertFalse(removed.slot(3).get(0).occupied());
    assertEquals(buses(1, 4, 4), bridgeAt(removed, "00.0/03.0"), "slot 3 keeps bus 4 for the next one");
    assertEquals(AddressRange.ofSize(0x8020_0000L, MIB), top(d).down.get(3).bridge().memory());
    assertSameOutside(added, removed, "00.0/03.0/00.0");
  }

  @Test
  void shouldKeepOtherNumbersEvenWhenASwitchIsPluggedIntoASlotAndTheDomainReenumerated() {
    SlotAllocation wide = new SlotAllocation(APERTURES,
        List.of(SlotGroup.uniform("slots", "00.0", 1, 16, 4, 0x8000_0000L, 16 * MIB, false)));
    FakeDomain d = multipeer();
    EnumerationResult before = d.run(Enumerator.enumerate("rc", wide));
    top(d).down.get(2).below = new FakeDomain.Switch().port(1, memory(MIB)).port(2, memory(2 * MIB));
    EnumerationResult after = d.run(Enumerator.enumerate("rc", wide));
    assertEquals(List.of(), after.problems());
    assertEquals(buses(1, 6, 9), bridgeAt(after, "00.0/02.0"), "slot 2's four buses");
    assertEquals(buses(6, 7, 9), bridgeAt(after, "00.0/02.0/00.0"));
    assertEquals(buses(7, 9, 9), bridgeAt(after, "00.0/02.0/00.0/02.0"));
    // Inside the slot's block, naturally aligned from the block's base.
    assertEquals(0x8120_0000L, after.at("00.0/02.0/00.0/02.0/00.0").orElseThrow().bars().get(0).base());
    assertSameOutside(before, after, "00.0/02.0/00.0");
  }

  @Test
  void shouldReportWhenAPluggedSwitchNeedsMoreBusesThanTheSlotKeeps() {
    FakeDomain d = multipeer();
    top(d).down.get(2).below = new FakeDomain.Switch().port(1, memory(MIB));
    EnumerationResult r = d.run(Enumerator.enumerate("rc", SLOTS));
    assertEquals(1, r.problems().size(), r.problems().toString());
    assertTrue(r.problems().get(0).contains("no bus number left (last 3)"), r.problems().get(0));
    assertEquals(buses(1, 4, 4), bridgeAt(r, "00.0/03.0"), "the neighbours are unaffected");
  }

  /**
   * Ladon's MH domain in miniature: a top switch whose port 3 leads to an NTB switch holding each
   * CH's primary NTB port (slots 1 and 2, no buses), 32 GiB blocks from 32 GiB (Ladon section 4.1).
   */
  @Test
  void shouldPlaceNtbPortsOfComputeHostsInTheirSlotBlocksWhenTheGroupIsBelowAnotherSwitch() {
    long l = 32 * GIB;
    FakeDomain.Switch ntbSwitch = new FakeDomain.Switch().ntb(1, ntbSide(l)).ntb(2, ntbSide(l));
    FakeDomain d = new FakeDomain(new FakeDomain.Switch().port(2, memory(512 << 10)).port(3, ntbSwitch));
    SlotAllocation ladon = new SlotAllocation(APERTURES,
        List.of(SlotGroup.uniform("pms1", "00.0/03.0/00.0", 1, 2, 0, l, l, true)));
    EnumerationResult r = d.run(Enumerator.enumerate("mmh", ladon));
    assertEquals(List.of(), r.problems());
    assertEquals(List.of(AddressRange.ofSize(l, l)), ntbSwitch.down.get(1).ntb.windows());
    assertEquals(List.of(AddressRange.ofSize(2 * l, l)), ntbSwitch.down.get(2).ntb.windows());
    assertEquals(new AddressRange(l, 3 * l - 1), ntbSwitch.up.bridge().prefetchable());
    assertEquals(new AddressRange(l, 3 * l - 1), bridgeAt(r, "00.0").prefetchable());
    assertEquals(buses(0, 1, 4), bridgeAt(r, "00.0"));
    SlotReservation ch2 = r.slot(2).get(0);
    assertEquals(new SlotReservation("pms1", 2, Bdf.of(4, 2, 0), 4, 4, AddressRange.ofSize(2 * l, l), true), ch2);
    assertEquals(FunctionKind.NTB_ENDPOINT, r.byBdf(Bdf.of(4, 2, 0)).orElseThrow().kind());
  }

  /**
   * With Ladon's data-plane fail-over every CH's NTB port has a second, 4 KiB BAR on its plane's
   * multicast page, the slot after the last CH's: the same page for every port.
   */
  @Test
  void shouldOverlayBarsThatNoSlotBlockTakesInTheGroupsSharedBlock() {
    long l = 32 * GIB;
    FakeDomain.Switch ntbSwitch = new FakeDomain.Switch().ntb(1, ntbSide(l, 4096)).ntb(2, ntbSide(l, 4096));
    FakeDomain d = new FakeDomain(new FakeDomain.Switch().port(3, ntbSwitch));
    AddressRange page = AddressRange.ofSize(3 * l, 4096);
    SlotGroup pms1 = new SlotGroup("pms1", "00.0/03.0/00.0", 0, true,
        SlotGroup.uniform("pms1", "00.0/03.0/00.0", 1, 2, 0, l, l, true).slots(), page);
    EnumerationResult r = d.run(Enumerator.enumerate("mmh", new SlotAllocation(APERTURES, List.of(pms1))));
    assertEquals(List.of(), r.problems());
    assertEquals(List.of(AddressRange.ofSize(l, l), page), ntbSwitch.down.get(1).ntb.windows());
    assertEquals(List.of(AddressRange.ofSize(2 * l, l), page), ntbSwitch.down.get(2).ntb.windows());
    assertEquals(new AddressRange(l, 3 * l + MIB - 1), bridgeAt(r, "00.0/03.0").prefetchable(),
        "the window reaches over the shared page, to the next granule");
    assertEquals("group pms1: shared block " + AddressRange.ofSize(2 * l, 4096) + " overlaps slot 2 "
        + AddressRange.ofSize(2 * l, l), assertThrows(IllegalArgumentException.class,
            () -> new SlotGroup("pms1", "00.0", 0, true, pms1.slots(), AddressRange.ofSize(2 * l, 4096))).getMessage());
  }

  /** A CH's own domain: two root ports, each with an NTB's virtual side (1 TiB) behind it. */
  @Test
  void shouldPlaceALargeBarAtItsBlocksBaseEvenWhenTheBlockIsNotAlignedToIt() {
    long l = 32 * GIB;
    long p = 1L << 40;
    FakeDomain d = new FakeDomain(new FakeDomain.Switch().port(1, ntbSide(p)).port(2, ntbSide(p)));
    SlotAllocation ch = new SlotAllocation(APERTURES, List.of(SlotGroup.uniform("views", "00.0", 1, 2, 1, l, p, true)));
    EnumerationResult r = d.run(Enumerator.enumerate("ch1", ch));
    assertEquals(List.of(), r.problems());
    assertEquals(l, r.at("00.0/01.0/00.0").orElseThrow().bars().get(0).base());
    assertEquals(l + p, r.at("00.0/02.0/00.0").orElseThrow().bars().get(0).base());
    assertEquals(AddressRange.ofSize(l, 2 * p), bridgeAt(r, "00.0").prefetchable());
    assertEquals(AddressRange.ofSize(l + p, p), bridgeAt(r, "00.0/02.0").prefetchable());
    assertEquals(buses(0, 1, 3), bridgeAt(r, "00.0"));
  }

  @Test
  void shouldReportMissingGroupAndBarsThatDoNotFitTheirBlock() {
    FakeDomain d = multipeer();
    top(d).down.get(4).below = memory(2 * MIB);
    SlotGroup nowhere = SlotGroup.uniform("elsewhere", "00.0/07.0/00.0", 1, 1, 0, 0x9000_0000L, MIB, false);
    EnumerationResult r = d.run(Enumerator.enumerate("rc", new SlotAllocation(APERTURES, List.of(FIG4, nowhere))));
    assertEquals(2, r.problems().size(), r.problems().toString());
    assertTrue(r.problems().stream().anyMatch(p -> p.startsWith("slot group elsewhere: no bridge at location 00.0/07.0/00.0")),
        r.problems().toString());
    assertTrue(r.problems().stream().anyMatch(p -> p.startsWith("05:00.0 [00.0/04.0/00.0]: BAR0 of 2MiB does not fit in the"
        + " block of slot slots/4")), r.problems().toString());
  }

  @Test
  void shouldRejectRescanOfASlotNoGroupReserved() {
    EnumerationResult r = multipeer().run(Enumerator.enumerate("rc", SLOTS));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Enumerator.rescanSlot(r, SLOTS, 17));
    assertTrue(e.getMessage().startsWith("slot=17 is reserved in no group"), e.getMessage());
  }

  @Test
  void shouldRenderTreeAndTables() {
    String text = multipeer().run(Enumerator.enumerate("rc", SLOTS)).render();
    assertTrue(text.startsWith("Enumeration from rc (slot mode): 21 functions, "), text);
    assertTrue(text.contains("00:00.0  upstream port 10b5:8748  [1-17]\n+-01:01.0  downstream port 10b5:8748  [2-2]"
        + "  slot slots/1\n| \\-02:00.0  endpoint 1af4:10f0  BAR0 1MiB @0x8000_0000\n"), text);
    assertTrue(text.contains("  01:05.0   00.0/05.0  downstream port  1/6/6        0x8040_0000..0x804F_FFFF (1MiB)   -\n"),
        text);
    assertTrue(text.contains("  slots  5     01:05.0   6      0x8040_0000..0x804F_FFFF (1MiB)  no"), text);
  }

  @Test
  void shouldNameSlotHostRangeAndBlockAndTellTheOthersWhenHostsComeAndGo() {
    SlotDirectory dir = SlotDirectory.of(multipeer().run(Enumerator.enumerate("rc", SLOTS)));
    dir.hostAdded(1, "epp1");
    dir.hostAdded(2, "epp2");
    dir.hostAdded(16, "epp16");
    SlotNotification added = dir.hostAdded(3, "epp3");
    assertEquals(SlotNotification.Change.ADDED, added.change());
    assertEquals(List.of("epp1", "epp2", "epp16"), added.recipients());
    assertEquals(List.of(new SlotReservation("slots", 3, Bdf.of(1, 3, 0), 4, 4, AddressRange.ofSize(0x8020_0000L, MIB), true)),
        added.reservations());
    SlotNotification removed = dir.hostRemoved(3);
    assertEquals(new SlotNotification(SlotNotification.Change.REMOVED, 3, "epp3",
        List.of(added.reservations().get(0).withOccupied(false)), List.of("epp1", "epp2", "epp16")), removed);
    assertEquals(Map.of(1, "epp1", 2, "epp2", 16, "epp16"), dir.occupants());
    assertEquals("slot=2 already holds host epp2",
        assertThrows(IllegalArgumentException.class, () -> dir.hostAdded(2, "x")).getMessage());
    assertEquals("host=epp1 already sits in slot 1",
        assertThrows(IllegalArgumentException.class, () -> dir.hostAdded(4, "epp1")).getMessage());
    assertEquals("slot=3 is empty", assertThrows(IllegalArgumentException.class, () -> dir.hostRemoved(3)).getMessage());
    assertEquals("slot=17 is not reserved (slots: 1..16)",
        assertThrows(IllegalArgumentException.class, () -> dir.hostAdded(17, "x")).getMessage());
  }

  /** Every function outside {@code changed} (a location prefix) has the same numbers as before. */
  static void assertSameOutside(EnumerationResult before, EnumerationResult after, String changed) {
    Function<EnumerationResult, Map<String, FunctionNode>> index = r -> r.all().stream()
        .filter(f -> !f.location().startsWith(changed))
        .collect(Collectors.toMap(FunctionNode::location, f -> f.withChildren(List.of())));
    assertEquals(index.apply(before), index.apply(after));
  }
}
