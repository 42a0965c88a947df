package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyLoader;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What faults did to the demo rack, as the invariants read it, without a rack running. */
class FaultedEndsTest {

  private static final Topology DEMO = load();

  private static Topology load() {
    try {
      return TopologyLoader.load("demo");
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void shouldListEachPortOfASwitchAndAnEndpointsOwnEndWhenAskedForAComponentsEnds() {
    FaultedEnds f = new FaultedEnds(DEMO);
    assertEquals(List.of("tor.up", "tor.ntb1", "tor.ntb2", "tor.down"), List.copyOf(f.endsOf("tor")));
    assertEquals(Set.of("ch1"), f.endsOf("ch1"));
    assertEquals(Set.of(), f.endsOf("nobody"));
  }

  @Test
  void shouldCountTheLinkDownAtBothEndsUntilItComesBackUp() {
    FaultedEnds f = new FaultedEnds(DEMO);
    f.linkDown("tor.ntb1");
    assertTrue(f.isDown("tor.ntb1"));
    assertTrue(f.isDown("ch1"), "the partner's link is the same link");
    assertFalse(f.isDown("tor.ntb2"));
    f.linkUp("tor.ntb1");
    assertFalse(f.isDown("ch1"));
    assertEquals(Set.of("tor.ntb1", "ch1"), f.everDown(), "a fault touched them, even if it is over");
  }

  @Test
  void shouldTakeEveryComponentOfAKilledNodeOutAndTheLinksIntoIt() {
    FaultedEnds f = new FaultedEnds(DEMO);
    f.killed("node-b");
    assertEquals(Set.of("leaf", "mem", "ch1"), f.failedComponents());
    assertFalse(f.reachable("ch1"));
    assertTrue(f.reachable("ch2"));
    assertTrue(f.isDown("tor.down"), "its partner, leaf.up, is on the killed node");
    assertFalse(f.isDown("tor.ntb2"));
  }

  @Test
  void shouldTouchEveryLinkOfAStoppedComponent() {
    FaultedEnds f = new FaultedEnds(DEMO);
    f.stopped("leaf");
    assertEquals(Set.of("leaf"), f.failedComponents());
    assertEquals(Set.of("leaf.up", "tor.down", "leaf.to-mem", "mem"), f.everDown());
    assertTrue(f.isDown("mem"));
  }
}
