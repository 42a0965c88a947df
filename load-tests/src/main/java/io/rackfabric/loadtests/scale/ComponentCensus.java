package io.rackfabric.loadtests.scale;

import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.GlobalMemorySpec;
import io.rackfabric.cluster.topology.Topology;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How many emulated components a topology starts, by type: what the nodes spawn for it (one actor
 * per switch chip, per switch port, per endpoint; the fail-over's host software beside each root
 * when the topology names a management host; the two control-plane hosts of a pair). Helpers
 * that are not emulated hardware or host software (receptionist adapters, the boot coordinator)
 * are left out.
 */
public final class ComponentCensus {

  private ComponentCensus() {}

  public static Map<String, Long> of(Topology topology) {
    Map<String, Long> counts = new LinkedHashMap<>();
    counts.put("switch_chip", (long) topology.switches().size());
    counts.put("switch_port", topology.switches().stream().mapToLong(s -> s.ports().size()).sum());
    counts.put("root_complex", topology.endpoints().stream().filter(EndpointSpec::root).count());
    counts.put("device", topology.endpoints().stream().filter(e -> !e.root()).count());
    GlobalMemorySpec memory = topology.globalMemorySpec();
    boolean software = memory != null && memory.managementHost() != null;
    counts.put("compute_host_software", software ? (long) memory.computeHosts().size() : 0L);
    counts.put("management_host_software", software ? 1L : 0L);
    counts.put("control_plane_host", topology.controlPlane() != null ? 2L : 0L);
    return counts;
  }

  public static long total(Topology topology) {
    return of(topology).values().stream().mapToLong(Long::longValue).sum();
  }

  /** The compute hosts: the global-memory section's, or every root named chN or rK-chN. */
  public static long computeHosts(Topology topology) {
    if (topology.globalMemorySpec() != null) {
      return topology.globalMemorySpec().computeHosts().size();
    }
    return topology.endpoints().stream().filter(EndpointSpec::root)
        .filter(e -> e.id().matches("(r\\d+-)?ch\\d+")).count();
  }
}
