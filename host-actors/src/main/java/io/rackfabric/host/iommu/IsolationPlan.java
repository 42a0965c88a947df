package io.rackfabric.host.iommu;

import akka.actor.typed.receptionist.ServiceKey;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the management host must know to isolate hosts from each other: per host that can be
 * isolated, its memory (the pages an IOMMU can open), where to find its root endpoint (the
 * hardware holding the IOMMU), and the requester IDs every other host's accesses arrive under
 * there, one per plane, as the NTBs' requester-ID tables are programmed.
 */
public record IsolationPlan(List<Target> targets) {

  /**
   * @param arrivalIds per requester host, the IDs its memory requests carry when they arrive at
   *     this host (after NTB proxying), one per route (plane)
   * @param deviceArrivalIds per device of another host (one that host could lend), the IDs its DMA
   *     carries when it arrives at this host, one per route (plane); not governed from the start:
   *     a borrower's driver hands them to its IOMMU for a loan (host-actors {@code
   *     controlplane.LoanDmaPages})
   */
  public record Target(String host, List<AddressRange> memory, ServiceKey<MemoryEndpoint.Command> root,
      Map<String, List<Integer>> arrivalIds, Map<String, List<Integer>> deviceArrivalIds) {

    public Target {
      memory = List.copyOf(memory);
      arrivalIds = Map.copyOf(arrivalIds);
      deviceArrivalIds = Map.copyOf(deviceArrivalIds);
    }

    /** A target whose other hosts lend no device. */
    public Target(String host, List<AddressRange> memory, ServiceKey<MemoryEndpoint.Command> root,
        Map<String, List<Integer>> arrivalIds) {
      this(host, memory, root, arrivalIds, Map.of());
    }
  }

  public IsolationPlan {
    targets = List.copyOf(targets);
  }

  /** A plan without targets: nothing can be isolated. */
  public static IsolationPlan none() {
    return new IsolationPlan(List.of());
  }

  public Optional<Target> target(String host) {
    return targets.stream().filter(t -> t.host().equals(host)).findFirst();
  }

  public List<String> hosts() {
    return targets.stream().map(Target::host).toList();
  }
}
