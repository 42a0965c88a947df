package io.rackfabric.loadtests.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.topology.TopologyLoader;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The discovery benchmark reports what the discovery found: no speed is asserted. */
class DiscoveryBenchTest {

  @Test
  void shouldReportEveryDeviceAndNoDifferenceWhenLadonTestbedIsDiscovered() throws Exception {
    var rack = new StartupBench.Rack("ladon-testbed", TopologyLoader.load("ladon-testbed"), Map.of());
    DiscoveryBench.Result r = DiscoveryBench.run(List.of(rack), 2).get(0);
    assertEquals(rack.topology().switches().size() + rack.topology().endpoints().size(), r.devices());
    assertEquals(rack.topology().links().size(), r.links());
    assertEquals(0, r.differences());
    assertTrue(r.readRequests() > r.devices(), r.toString());
    assertTrue(r.walkNanos() > 0, r.toString());
    assertEquals(8, r.figures().size());
    assertTrue(r.figures().stream().allMatch(f -> f.name().startsWith("discovery.ladon-testbed.")));
  }
}
