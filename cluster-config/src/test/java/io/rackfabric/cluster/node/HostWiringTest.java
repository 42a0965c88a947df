package io.rackfabric.cluster.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rackfabric.cluster.topology.LadonRackGenerator;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.Plane;
import java.util.List;
import org.junit.jupiter.api.Test;

class HostWiringTest {

  @Test
  void shouldTakeEveryChipsPortAsThePlanesWhenFortyEightHosts() {
    GlobalMemoryLayout layout = GlobalMemoryLayout.create(32L << 30, 48, 2L << 40);
    Topology t = LadonRackGenerator.generate(layout, LadonRackGenerator.Placement.SINGLE_NODE);

    List<HostWiring.PlanePort> ports = HostWiring.planePortsOf(t, "mmh", layout);

    assertEquals(List.of("to-pri-1", "to-pri-2", "to-sec-1", "to-sec-2"),
        ports.stream().map(p -> p.port().name()).toList());
    assertEquals(List.of(Plane.PRIMARY, Plane.PRIMARY, Plane.SECONDARY, Plane.SECONDARY),
        ports.stream().map(HostWiring.PlanePort::plane).toList());
  }

  @Test
  void shouldFindOnePortPerPlaneWhenEightHosts() {
    GlobalMemoryLayout layout = GlobalMemoryLayout.paper(8);
    Topology t = LadonRackGenerator.generate(layout, LadonRackGenerator.Placement.SINGLE_NODE);

    List<HostWiring.PlanePort> ports = HostWiring.planePortsOf(t, "mmh", layout);

    assertEquals(List.of("to-pri", "to-sec"), ports.stream().map(p -> p.port().name()).toList());
  }
}
