package io.rackfabric.cluster.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.topology.RouteExplanation.Kind;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.Plane;
import org.junit.jupiter.api.Test;

class MultiRackGeneratorTest {

  @Test
  void shouldReachEveryOtherRacksHostsThroughTheSpineWhenThreeRacks() {
    Topology t = MultiRackGenerator.generate(3, 4);
    GlobalMemoryLayout layout = MultiRackGenerator.rackLayout(4);
    RouteExplainer routes = new RouteExplainer(t);

    for (int from = 1; from <= 3; from++) {
      for (int to = 1; to <= 3; to++) {
        if (to == from) {
          continue;
        }
        for (int ch = 1; ch <= 4; ch++) {
          long offset = 0x100_0000L + 0x40L * (from * 16 + ch);
          RouteExplanation r = routes.explain("r" + from + "-mmh",
              MultiRackGenerator.remoteAddress(layout, to, ch, offset), false);
          String what = "r" + from + "-mmh -> r" + to + "-ch" + ch;
          assertEquals(Kind.DELIVERED, r.outcome().kind(), what + ": " + r.outcome());
          assertEquals("r" + to + "-ch" + ch, r.target(), what);
          assertEquals(offset, r.outcome().address(), what + ": " + Addresses.hex(r.outcome().address()));
        }
      }
    }
  }

  @Test
  void shouldKeepEachRacksOwnRoutesWhenJoined() {
    Topology t = MultiRackGenerator.generate(2, 4);
    GlobalMemoryLayout layout = MultiRackGenerator.rackLayout(4);
    RouteExplainer routes = new RouteExplainer(t);

    RouteExplanation r = routes.explain("r2-ch1", layout.chAddress(1, 3, 0x2000, Plane.SECONDARY), false);

    assertEquals(Kind.DELIVERED, r.outcome().kind(), r.outcome().toString());
    assertEquals("r2-ch3", r.target());
  }

  @Test
  void shouldHoldOverAThousandHostsWhenTwentyOneRacksOfFortyEight() {
    Topology t = MultiRackGenerator.generate(21, 48);

    assertEquals(1008, MultiRackGenerator.computeHosts(21, 48).size());
    assertTrue(t.endpoint("r21-ch48").isPresent());
    assertEquals(1 + 21, t.switchSpec("spine").orElseThrow().ports().size());
    assertEquals(1, t.nodes().size());
  }

  @Test
  void shouldRejectNamingTheValueWhenThirtyTwoRacks() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> MultiRackGenerator.generate(32, 2));

    assertTrue(e.getMessage().startsWith("racks=32 not in 1..31"), e.getMessage());
  }
}
