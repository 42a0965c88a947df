package io.rackfabric.cluster.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rackfabric.cluster.topology.TopologyLoader;
import java.util.Set;
import org.junit.jupiter.api.Test;

class NodeRunnerTest {

  @Test
  void shouldNameTheNodesOfTheManagementHostsWhenTheTopologyHasThem() throws Exception {
    assertEquals(Set.of("node-mmh", "node-bmh"), NodeRunner.managementNodes(TopologyLoader.load("ladon-testbed")),
        "the MMH (management-host, master) and the BMH (backup)");
  }

  @Test
  void shouldNameNoNodeWhenTheTopologyHasNoManagementHost() throws Exception {
    assertEquals(Set.of(), NodeRunner.managementNodes(TopologyLoader.load("demo")));
  }
}
