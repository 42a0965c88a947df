package io.rackfabric.cluster.lending;

import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.address.Addresses;

/**
 * A device passed through to a VM (Device Lending, section 5, Figure 7): the lender-side IOMMU
 * maps the guest's memory for the device at the guest's own addresses, so the guest's driver hands
 * the device guest-physical addresses. On a VM of the device's own host (a local VM, VFIO) a
 * guest-physical address maps to the host's RAM behind it; on a VM of another host it maps into the
 * loan's DMA window toward that host, which must cover the guest's memory (the borrower's IOMMU
 * then maps the window's pages onto it, section 4). Pure: found through {@link LoanPlanner}, so by
 * routing requests through the topology as {@code rack route} does.
 */
public final class VmPassThrough {

  private VmPassThrough() {}

  /**
   * The lender-side IOMMU's map of a VM's memory for one device.
   *
   * @param lender the device's host, whose IOMMU holds the map
   * @param busBase the address guest-physical 0 maps to in the lender's domain: the address a
   *     request of the device carries once the IOMMU translated it
   */
  public record GuestMapping(GuestVm vm, String device, String lender, long busBase) {

    /** Whether the VM runs on another host than the device's: a borrower. */
    public boolean remote() {
      return !lender.equals(vm.host());
    }

    /**
     * Where guest-physical {@code gpa} goes after the lender's IOMMU.
     *
     * @throws IllegalArgumentException naming the address when it is outside the guest's memory
     */
    public long busAddress(long gpa) {
      vm.check(gpa);
      return busBase + gpa;
    }

    /** One line: {@code gpu1 for guest (remote, lender lender): guest 0x0 +512MiB -> 0xC00000000}. */
    public String describe() {
      return device + " for " + vm.name() + " (" + (remote() ? "borrowed from " : "local to ") + lender
          + "): guest-physical 0x0 +" + Addresses.size(vm.memory()) + " -> " + Addresses.hex(busBase);
    }
  }

  /**
   * Maps {@code vm}'s memory for {@code device} in its lender's IOMMU.
   *
   * @throws LoanPlanException naming the values when the VM's memory is not in its host's RAM, the
   *     device cannot be lent to the VM's host, or the loan's DMA window does not cover the memory
   */
  public static GuestMapping map(Topology topology, GuestVm vm, String device) {
    EndpointSpec host = topology.endpoint(vm.host()).filter(EndpointSpec::root).orElseThrow(
        () -> new LoanPlanException("vm=" + vm.name() + ": host=" + vm.host() + " is not a root (a host) of topology "
            + topology.name()));
    long last = vm.base() + vm.memory() - 1;
    if (host.bars().stream().noneMatch(ram -> ram.contains(vm.base()) && ram.contains(last))) {
      throw new LoanPlanException("vm=" + vm.name() + ": memory=" + Addresses.size(vm.memory()) + " at base="
          + Addresses.hex(vm.base()) + " does not fit " + vm.host() + "'s RAM " + host.bars());
    }
    LoanPlanner planner = new LoanPlanner(topology);
    String lender = planner.lenderOf(device).orElseThrow(() -> new LoanPlanException("vm=" + vm.name() + ": device="
        + device + " reaches no host's RAM without an NTB: it has no lender"));
    if (lender.equals(vm.host())) {
      return new GuestMapping(vm, device, lender, vm.base());
    }
    LoanPlanner.DmaWindow w = planner.plan(device, vm.host()).window();
    AddressRange window = AddressRange.ofSize(w.borrowerSide(), w.size());
    if (!window.contains(vm.base()) || !window.contains(last)) {
      throw new LoanPlanException("vm=" + vm.name() + ": memory=" + Addresses.size(vm.memory()) + " at base="
          + Addresses.hex(vm.base()) + " does not fit device=" + device + "'s DMA window into " + vm.host() + " "
          + window + ": the lender's IOMMU can map only what the window reaches");
    }
    return new GuestMapping(vm, device, lender, w.deviceSide() + (vm.base() - w.borrowerSide()));
  }
}
