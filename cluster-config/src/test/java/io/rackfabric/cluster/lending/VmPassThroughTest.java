package io.rackfabric.cluster.lending;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.lending.VmPassThrough.GuestMapping;
import io.rackfabric.cluster.topology.HostIommu;
import io.rackfabric.cluster.topology.RouteExplainer;
import io.rackfabric.cluster.topology.RouteExplanation;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyException;
import io.rackfabric.cluster.topology.TopologyLoader;
import org.junit.jupiter.api.Test;

/** VMs and their passed-through devices on lending-vm (Device Lending, section 5). */
class VmPassThroughTest {

  private static final long GIB = 1L << 30;
  private static final long MIB = 1L << 20;

  @Test
  void shouldMapGuestMemoryIntoTheDmaWindowWhenTheVmRunsOnTheBorrower() throws TopologyException {
    Topology t = HostIommu.enable(TopologyLoader.load("lending-vm"), "lender");
    GuestVm vm = new GuestVm("guest", "borrower", 512 * MIB, 8 * GIB + 256 * MIB);

    GuestMapping m = VmPassThrough.map(t, vm, "gpu1");

    assertTrue(m.remote());
    assertEquals("lender", m.lender());
    assertEquals(48 * GIB + 256 * MIB, m.busBase(), "the window [48GiB, +1GiB) lands at the borrower's 8GiB");
    RouteExplanation r = new RouteExplainer(t).explain("gpu1", m.busAddress(0x40), false);
    assertEquals("borrower", r.target(), r.toText());
    assertEquals(vm.hostAddress(0x40), r.outcome().address(), "guest-physical 0x40 is the host's base + 0x40");
  }

  @Test
  void shouldMapGuestMemoryOntoTheHostsRamWhenTheVmIsLocalToTheDevice() throws TopologyException {
    GuestVm vm = new GuestVm("local", "lender", 512 * MIB, GIB);
    GuestMapping m = VmPassThrough.map(TopologyLoader.load("lending-vm"), vm, "gpu2");

    assertFalse(m.remote());
    assertEquals(GIB + 0x1000, m.busAddress(0x1000));
  }

  @Test
  void shouldNameTheValuesWhenTheVmsMemoryDoesNotFitItsHostsRam() throws TopologyException {
    GuestVm vm = new GuestVm("big", "borrower", 2 * GIB, 16 * GIB);
    LoanPlanException e = assertThrows(LoanPlanException.class,
        () -> VmPassThrough.map(TopologyLoader.load("lending-vm"), vm, "gpu1"));
    assertTrue(e.getMessage().contains("vm=big: memory=2GiB at base=0x400000000 does not fit borrower's RAM"),
        e.getMessage());
  }

  @Test
  void shouldNameTheWindowWhenTheVmsMemoryIsInRamButOutsideTheDmaWindow() throws TopologyException {
    GuestVm vm = new GuestVm("wide", "borrower", 2 * GIB, 8 * GIB);
    LoanPlanException e = assertThrows(LoanPlanException.class,
        () -> VmPassThrough.map(TopologyLoader.load("lending-vm"), vm, "gpu1"));
    assertTrue(e.getMessage().contains("memory=2GiB at base=0x200000000 does not fit device=gpu1's DMA window"),
        e.getMessage());
  }

  @Test
  void shouldRefuseAGuestPhysicalAddressWhenItIsOutsideTheGuestsMemory() {
    GuestVm vm = new GuestVm("guest", "borrower", 512 * MIB, 8 * GIB);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> vm.hostAddress(512 * MIB));
    assertTrue(e.getMessage().contains("guest-physical 0x20000000 is outside its memory"), e.getMessage());
  }

  @Test
  void shouldRefuseMemoryWhenItIsNotWholePages() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new GuestVm("odd", "borrower", 1000, 8 * GIB));
    assertTrue(e.getMessage().contains("vm=odd: memory=1000 bytes"), e.getMessage());
  }
}
