package io.rackfabric.cluster.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.topology.LadonRackGenerator.Placement;
import io.rackfabric.cluster.topology.RouteExplanation.Kind;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.Plane;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LadonRackGeneratorTest {

  private static final long GIB = 1L << 30;

  @Test
  void shouldReproduceTheTestbedFileWhenTwoHostsOnePerNode() throws TopologyException {
    Topology testbed = TopologyLoader.load("ladon-testbed");

    Topology generated = LadonRackGenerator.generate(GlobalMemoryLayout.paper(2), Placement.ONE_NODE_PER_HOST);

    // Component by component, so that a difference names the part that differs.
    assertEquals(testbed.nodes(), generated.nodes());
    for (int i = 0; i < testbed.switches().size(); i++) {
      assertEquals(testbed.switches().get(i), generated.switches().get(i));
    }
    assertEquals(testbed.switches().size(), generated.switches().size());
    assertEquals(testbed.endpoints(), generated.endpoints());
    assertEquals(testbed.links(), generated.links());
    assertEquals(testbed.globalMemorySpec(), generated.globalMemorySpec());
  }

  @Test
  void shouldRouteLikeTheTestbedWhenTwoHosts() throws TopologyException {
    GlobalMemoryLayout layout = GlobalMemoryLayout.paper(2);
    Topology testbed = TopologyLoader.load("ladon-testbed");
    Topology generated = LadonRackGenerator.generate(layout, Placement.SINGLE_NODE);
    RouteExplainer expected = new RouteExplainer(testbed);
    RouteExplainer actual = new RouteExplainer(generated);

    List<String[]> paths = new ArrayList<>();   // {from, address}
    for (Plane plane : Plane.values()) {
      for (int target = 1; target <= 2; target++) {
        paths.add(new String[] {"mmh", Long.toString(layout.mhAddress(target, 0x100, plane))});
        for (int viewer = 1; viewer <= 2; viewer++) {
          long own = layout.mhAddress(viewer, 0x40, plane) + layout.localSubspace();
          paths.add(new String[] {"ch" + viewer, Long.toString(viewer == target
              ? own : layout.chAddress(viewer, target, 0x40, plane))});
        }
      }
    }
    paths.add(new String[] {"ch1", Long.toString(layout.chAddress(1, 0, 0x1000, Plane.PRIMARY))});
    paths.add(new String[] {"bmh", Long.toString(layout.mhAddress(1, 0, Plane.PRIMARY))});

    int delivered = 0;
    for (String[] p : paths) {
      long address = Long.parseLong(p[1]);
      for (boolean read : new boolean[] {true, false}) {
        RouteExplanation.Outcome want = expected.explain(p[0], address, read).outcome();
        RouteExplanation.Outcome got = actual.explain(p[0], address, read).outcome();
        String what = p[0] + " -> " + Addresses.hex(address) + (read ? " read" : " write");
        assertEquals(want.kind(), got.kind(), what);
        assertEquals(want.component(), got.component(), what);
        assertEquals(want.bar(), got.bar(), what);
        assertEquals(want.barRange(), got.barRange(), what);
        assertEquals(want.address(), got.address(), what);
        delivered += got.kind() == Kind.DELIVERED ? 1 : 0;
      }
    }
    // Not vacuous: most paths deliver, and the CH-to-itself and BMH ones do not.
    assertEquals(2 * (4 + 4 + 1), delivered);
  }

  @Test
  void shouldConnectEveryPairThroughBothPlanesWhenEightHosts() {
    assertEveryHostReachesEveryOther(GlobalMemoryLayout.paper(8));
  }

  @Test
  void shouldConnectEveryPairThroughBothPlanesWhenThirtyOneHosts() {
    assertEveryHostReachesEveryOther(GlobalMemoryLayout.paper(31));
  }

  @Test
  void shouldConnectEveryPairWhenTheLayoutIsNotThePapers() {
    assertEveryHostReachesEveryOther(GlobalMemoryLayout.create(4 * GIB, 5, 64 * GIB, 40));
  }

  private static void assertEveryHostReachesEveryOther(GlobalMemoryLayout layout) {
    Topology t = LadonRackGenerator.generate(layout, Placement.SINGLE_NODE);
    RouteExplainer routes = new RouteExplainer(t);
    int n = layout.computeHosts();
    long memory = Math.min(8 * GIB, layout.localSubspace());
    for (Plane plane : Plane.values()) {
      for (int target = 1; target <= n; target++) {
        // A distinct offset per pair, near the top of the CH's memory, so that a translation off
        // by a slot or by the wrong base cannot land on the right byte by accident.
        long mhOffset = memory - 0x1000L * (target + 1);
        assertDelivered(routes.explain("mmh", layout.mhAddress(target, mhOffset, plane), true),
            "ch" + target, mhOffset, "mmh -> ch" + target + " " + plane);
        for (int viewer = 1; viewer <= n; viewer++) {
          if (viewer == target) {
            long own = layout.mhAddress(viewer, 0x40, plane) + layout.localSubspace();
            RouteExplanation r = routes.explain("ch" + viewer, own, true);
            assertFalse(r.delivered(), "ch" + viewer + " own range " + plane + ": " + r.outcome());
            continue;
          }
          long offset = 0x40L * (viewer * 64 + target);
          assertDelivered(routes.explain("ch" + viewer, layout.chAddress(viewer, target, offset, plane), false),
              "ch" + target, offset, "ch" + viewer + " -> ch" + target + " " + plane);
        }
      }
    }
    for (int viewer = 1; viewer <= n; viewer++) {
      assertDelivered(routes.explain("ch" + viewer, layout.chAddress(viewer, 0, 0x2000, Plane.PRIMARY), true),
          "mmh", 0x2000, "ch" + viewer + " -> mmh");
    }
  }

  private static void assertDelivered(RouteExplanation r, String target, long offset, String what) {
    assertEquals(Kind.DELIVERED, r.outcome().kind(), what + ": " + r.outcome());
    assertEquals(target, r.target(), what);
    assertEquals(0, r.outcome().bar(), what);
    assertEquals(offset, r.outcome().address(), what + ": " + Addresses.hex(r.outcome().address()));
  }

  @Test
  void shouldGiveEachHostAnNtbPortOnBothChipsWhenEightHosts() {
    Topology t = LadonRackGenerator.generate(GlobalMemoryLayout.paper(8), Placement.ONE_NODE_PER_HOST);

    assertEquals(3 + 8, t.switches().size());
    assertEquals(3 + 8, t.endpoints().size());
    assertEquals(5 + 3 * 8, t.links().size());
    assertEquals(3 + 8, t.nodes().size());
    assertEquals(25521 + 10, t.nodes().get(10).port());
    assertEquals("node-ch8", t.nodes().get(10).name());
    for (String chip : List.of("nt-pri", "nt-sec")) {
      SwitchSpec s = t.switchSpec(chip).orElseThrow();
      assertEquals(9, s.ports().size());
      for (int i = 1; i <= 8; i++) {
        PortConfig p = s.port("ch" + i).orElseThrow();
        assertEquals(i, p.number());
        assertEquals(PortRole.NTB, p.role());
      }
    }
    assertEquals("node-ch5", t.switchSpec("ch5-rp").orElseThrow().node());
    assertEquals(List.of("ch1", "ch2", "ch3", "ch4", "ch5", "ch6", "ch7", "ch8"), t.computeHostIds());
  }

  @Test
  void shouldPutEverythingOnOneNodeWhenSingleNode() {
    Topology t = LadonRackGenerator.generate(GlobalMemoryLayout.paper(3), Placement.SINGLE_NODE);

    assertEquals(List.of(new NodeSpec("node-1", "127.0.0.1", 25521)), t.nodes());
    assertEquals(t.componentIds().size(), t.placedOn("node-1").size());
  }

  @Test
  void shouldSpreadEachPlaneOverTwoNtbChipsWhenFortyEightHosts() {
    Topology t = LadonRackGenerator.generate(fortyEight(), Placement.THREE_NODES);

    for (String chip : List.of("nt-pri-1", "nt-pri-2", "nt-sec-1", "nt-sec-2")) {
      SwitchSpec s = t.switchSpec(chip).orElseThrow();
      assertEquals(1 + 24, s.ports().size(), chip);
      assertEquals(1, s.multicast().size(), chip);
    }
    assertEquals(1, t.switchSpec("nt-pri-2").orElseThrow().port("ch25").orElseThrow().number());
    assertEquals(24, t.switchSpec("nt-sec-1").orElseThrow().port("ch24").orElseThrow().number());
    // tor copies each plane's multicast page to both of its chips.
    assertEquals(2, t.switchSpec("tor").orElseThrow().multicast().size());
    assertEquals("mmh", t.globalMemorySpec().managementHost());
    assertTrue(t.controlPlane() != null);
  }

  @Test
  void shouldPlaceHalfTheHostsBesideEachManagementHostWhenThreeNodes() {
    Topology t = LadonRackGenerator.generate(fortyEight(), Placement.THREE_NODES);

    assertEquals(List.of("node-switch", "node-mmh", "node-bmh"), t.nodes().stream().map(NodeSpec::name).toList());
    assertEquals("node-mmh", t.endpoint("ch24").orElseThrow().node());
    assertEquals("node-mmh", t.switchSpec("ch24-rp").orElseThrow().node());
    assertEquals("node-bmh", t.endpoint("ch25").orElseThrow().node());
    assertEquals("node-bmh", t.endpoint("bmh").orElseThrow().node());
    assertEquals("node-switch", t.switchSpec("nt-sec-2").orElseThrow().node());
    assertEquals("node-switch", t.endpoint("nic").orElseThrow().node());
  }

  @Test
  void shouldConnectEveryPairThroughBothPlanesWhenFortyEightHosts() {
    assertEveryHostReachesEveryOther(fortyEight());
  }

  @Test
  void shouldRejectWithTheLimitWhenTwoHundredFiftySixHosts() {
    GlobalMemoryLayout layout = GlobalMemoryLayout.create(4 * GIB, 256, 2L << 40);

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> LadonRackGenerator.generate(layout, Placement.SINGLE_NODE));

    assertTrue(e.getMessage().startsWith("hosts=256: at most 255 compute hosts"), e.getMessage());
  }

  /** The paper's L with P = 2TiB: room for 48 CHs and the fail-over's slots (P/L - 3 = 61). */
  private static GlobalMemoryLayout fortyEight() {
    return GlobalMemoryLayout.create(32 * GIB, 48, 2L << 40);
  }

  @Test
  void shouldRejectWhenTheLocalSubspaceCannotHoldTheNic() {
    GlobalMemoryLayout layout = GlobalMemoryLayout.create(2 * GIB, 2, 64 * GIB);

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> LadonRackGenerator.generate(layout, Placement.SINGLE_NODE));

    assertTrue(e.getMessage().startsWith("local-subspace=2GiB is below 4GiB"), e.getMessage());
  }

  @Test
  void shouldRejectWhenTheNodePortsRunPast65535() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> LadonRackGenerator.generate(GlobalMemoryLayout.paper(4), Placement.ONE_NODE_PER_HOST,
            "127.0.0.1", 65530));

    assertTrue(e.getMessage().contains("65530..65536"), e.getMessage());
  }
}
