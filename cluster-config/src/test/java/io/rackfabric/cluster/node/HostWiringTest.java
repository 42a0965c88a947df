package io.rackfabric.cluster.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.management.TopologyFabric;
import io.rackfabric.cluster.topology.LadonRackGenerator;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.host.failover.PathTablePlanes;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.Plane;
import java.util.List;
import java.util.Map;
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
  void shouldNameEveryTargetBySerialAndEachRootPortByPlaneWhenACHReadsItsPathTable() {
    Topology t = JournaledRack.bundled("ladon-testbed");
    TopologyFabric fabric = TopologyFabric.of(t, FabricSettings.create(ConfigFactory.load()));

    PathTablePlanes planes = HostWiring.pathTablePlanes(t, t.globalMemorySpec(), "ch1", fabric);

    assertEquals(Map.of(fabric.serialOf("mmh"), 0, fabric.serialOf("ch1"), 1, fabric.serialOf("ch2"), 2),
        planes.targets());
    assertEquals(Map.of(1, Plane.PRIMARY, 2, Plane.SECONDARY), planes.rootPorts(), "ch1-rp.pri and .sec");
  }

  @Test
  void shouldFindOnePortPerPlaneWhenEightHosts() {
    GlobalMemoryLayout layout = GlobalMemoryLayout.paper(8);
    Topology t = LadonRackGenerator.generate(layout, LadonRackGenerator.Placement.SINGLE_NODE);

    List<HostWiring.PlanePort> ports = HostWiring.planePortsOf(t, "mmh", layout);

    assertEquals(List.of("to-pri", "to-sec"), ports.stream().map(p -> p.port().name()).toList());
  }
}
