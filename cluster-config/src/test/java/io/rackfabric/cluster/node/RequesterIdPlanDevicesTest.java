package io.rackfabric.cluster.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyLoader;
import io.rackfabric.host.iommu.IsolationPlan;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class RequesterIdPlanDevicesTest {

  @Test
  void shouldPredictTheIdsALentDevicesDmaArrivesUnderWhenItSitsInAComputeHostsSlot() throws Exception {
    IsolationPlan plan = RequesterIdPlan.of(TopologyLoader.load("ladon-lending")).isolationPlan();

    IsolationPlan.Target ch2 = plan.target("ch2").orElseThrow();
    List<Integer> gpu = ch2.deviceArrivalIds().get("gpu1");
    assertEquals(2, gpu.size(), "one ID per plane: " + ch2.deviceArrivalIds());
    Set<Integer> hosts = ch2.arrivalIds().values().stream().flatMap(List::stream).collect(Collectors.toSet());
    assertTrue(gpu.stream().noneMatch(hosts::contains), "the GPU's IDs are none of the hosts': " + ch2);
    assertEquals(Map.of(), plan.target("ch1").orElseThrow().deviceArrivalIds(), "its own GPU is not another's");
  }

  @Test
  void shouldKeepTheHostsIdsWhenTheRackHasDevicesInItsSlots() throws Exception {
    Topology withGpu = TopologyLoader.load("ladon-lending");
    Topology without = TopologyLoader.load("ladon-testbed");

    assertEquals(RequesterIdPlan.of(without).isolationPlan().target("ch2").orElseThrow().arrivalIds(),
        RequesterIdPlan.of(withGpu).isolationPlan().target("ch2").orElseThrow().arrivalIds());
    assertEquals(Map.of(), RequesterIdPlan.of(without).isolationPlan().target("ch2").orElseThrow().deviceArrivalIds());
  }
}
