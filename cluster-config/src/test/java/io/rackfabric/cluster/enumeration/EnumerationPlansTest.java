package io.rackfabric.cluster.enumeration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rackfabric.cluster.topology.LadonRackGenerator;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.host.enumeration.AllocationPolicy;
import io.rackfabric.host.enumeration.Apertures;
import io.rackfabric.host.enumeration.DynamicAllocation;
import io.rackfabric.host.enumeration.SlotGroup;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.Plane;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What each root of a topology enumerates with, worked out from the file. */
class EnumerationPlansTest {

  static final Topology LADON = TopologyExpectations.bundled("ladon-testbed");
  static final long GIB = 1L << 30;

  @Test
  void shouldLocateWhatEachRootCanReachAndStopAtNtbPorts() {
    assertEquals(Map.of(
            "tor.mmh", "00.0", "tor.nic", "00.0/02.0", "nic", "00.0/02.0/00.0",
            "tor.to-pri", "00.0/03.0", "nt-pri.up", "00.0/03.0/00.0", "nt-pri.ch1", "00.0/03.0/00.0/01.0",
            "nt-pri.ch2", "00.0/03.0/00.0/02.0",
            "tor.to-sec", "00.0/04.0", "nt-sec.up", "00.0/04.0/00.0", "nt-sec.ch1", "00.0/04.0/00.0/01.0"),
        without(EnumerationPlans.locations(LADON, "mmh"), "nt-sec.ch2"));
    assertEquals(Map.of("ch1-rp.up", "00.0", "ch1-rp.pri", "00.0/01.0", "nt-pri.ch1", "00.0/01.0/00.0",
        "ch1-rp.sec", "00.0/02.0", "nt-sec.ch1", "00.0/02.0/00.0"), EnumerationPlans.locations(LADON, "ch1"));
    assertEquals(Map.of("tor.bmh", "00.0"), EnumerationPlans.locations(LADON, "bmh"));
    assertEquals(List.of("mmh", "bmh", "ch1", "ch2"), EnumerationPlans.roots(LADON));
  }

  @Test
  void shouldTakeAperturesFromTheRootsUpstreamWindows() {
    assertEquals(new Apertures(new AddressRange(0xE000_0000L, 0xFFFF_FFFFL), new AddressRange(32 * GIB, (1L << 48) - 1)),
        EnumerationPlans.apertures(LADON, "mmh"));
    assertEquals(new Apertures(Apertures.DEFAULT.memory(), new AddressRange(32 * GIB, (1L << 48) - 1)),
        EnumerationPlans.apertures(LADON, "ch2"));
    assertEquals(Apertures.DEFAULT, EnumerationPlans.apertures(TopologyExpectations.bundled("fig1"), "srv2"),
        "a root on an NTB port has no upstream window");
    assertEquals(new DynamicAllocation(EnumerationPlans.apertures(LADON, "mmh")),
        EnumerationPlans.policy(LADON, "mmh", AllocationPolicy.Mode.DYNAMIC, EnumerationPlans.SEEDS_001));
  }

  @Test
  void shouldMakeEachComputeHostsNtbPortItsSlotWhenTheRackHasAGlobalMemoryLayout() {
    GlobalMemoryLayout layout = GlobalMemoryLayout.paper(4);
    Topology rack = LadonRackGenerator.generate(layout, LadonRackGenerator.Placement.SINGLE_NODE);
    List<SlotGroup> mh = EnumerationPlans.policy(rack, "mmh", AllocationPolicy.Mode.SLOT, EnumerationPlans.SEEDS_001)
        .slotGroups();
    assertEquals(List.of("nt-pri/pms1", "nt-sec/pms2"), mh.stream().map(SlotGroup::name).toList());
    for (SlotGroup g : mh) {
      Plane plane = g.name().endsWith("pms1") ? Plane.PRIMARY : Plane.SECONDARY;
      assertEquals(0, g.busesPerSlot());
      assertEquals(List.of(1, 2, 3, 4), g.slots().stream().map(SlotGroup.Slot::slot).toList());
      for (SlotGroup.Slot s : g.slots()) {
        assertEquals(layout.mhRangeOf(s.slot(), plane), s.block(), g.name() + " slot " + s.slot());
      }
    }
    List<SlotGroup> ch3 = EnumerationPlans.policy(rack, "ch3", AllocationPolicy.Mode.SLOT, EnumerationPlans.SEEDS_001)
        .slotGroups();
    assertEquals(1, ch3.size());
    assertEquals(List.of(layout.chView(Plane.PRIMARY), layout.chView(Plane.SECONDARY)),
        ch3.get(0).slots().stream().map(SlotGroup.Slot::block).toList());
    assertEquals("00.0", ch3.get(0).location());
    assertNull(ch3.get(0).shared());
  }

  @Test
  void shouldShareEachPlanesMulticastPageWhenTheRackRunsLadonsFailover() {
    List<SlotGroup> mh = EnumerationPlans.policy(LADON, "mmh", AllocationPolicy.Mode.SLOT, EnumerationPlans.SEEDS_001)
        .slotGroups();
    var ladon = LADON.globalMemorySpec().ladonAddresses();
    assertEquals(ladon.multicastPage(Plane.PRIMARY), mh.get(0).shared());
    assertEquals(ladon.multicastPage(Plane.SECONDARY), mh.get(1).shared());
    assertEquals("00.0/03.0/00.0", mh.get(0).location());
  }

  @Test
  void shouldGiveEveryPortOfTheRootsSwitchASlotWhenTheRackHasNoLayout() {
    Topology multipeer = TopologyExpectations.bundled("multipeer16");
    SlotGroup g = EnumerationPlans.policy(multipeer, "rc", AllocationPolicy.Mode.SLOT, EnumerationPlans.SEEDS_001)
        .slotGroups().get(0);
    assertEquals(SlotGroup.uniform("slots", "00.0", 1, 16, 1, 0x8000_0000L, 1 << 20, false), g);
    SlotGroup wide = EnumerationPlans.policy(multipeer, "rc", AllocationPolicy.Mode.SLOT,
        new EnumerationPlans.SlotParameters(4 << 20, 2)).slotGroups().get(0);
    assertEquals(AddressRange.ofSize(0x83C0_0000L, 4 << 20), wide.slots().get(15).block());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EnumerationPlans.policy(multipeer,
        "rc", AllocationPolicy.Mode.SLOT, new EnumerationPlans.SlotParameters(256L << 20, 1)));
    assertEquals("group slots: slot 9 block [0x100000000..0x10FFFFFFF] is memory but ends above 4GiB", e.getMessage());
  }

  static Map<String, String> without(Map<String, String> m, String key) {
    Map<String, String> copy = new HashMap<>(m);
    copy.remove(key);
    return copy;
  }
}
