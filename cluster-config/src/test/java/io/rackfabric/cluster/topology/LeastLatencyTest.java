package io.rackfabric.cluster.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class LeastLatencyTest {

  static final long SWITCH_NS = 150;

  static Topology ladon() throws TopologyException {
    return TopologyLoader.load("ladon-testbed");
  }

  /** The least flight of the link at {@code end}, as the topology gives it. */
  static long flight(Topology t, String end) {
    return t.linkAt(end).orElseThrow().params().leastFlightNs();
  }

  @Test
  void shouldAddTwoLinksAndOneSwitchWhenTwoEndpointsShareASwitch() throws Exception {
    Topology t = ladon();
    long expected = flight(t, "mmh") + SWITCH_NS + flight(t, "nic");
    assertEquals(OptionalLong.of(expected), LeastLatency.between(t, "mmh", "nic", SWITCH_NS));
    assertEquals(OptionalLong.of(expected), LeastLatency.between(t, "nic", "mmh", SWITCH_NS), "the same both ways");
  }

  @Test
  void shouldTakeTheCheapestChainThroughEverySwitchCrossedWhenTheHostIsBehindNtbs() throws Exception {
    Topology t = ladon();
    // mmh - tor - nt-pri (or nt-sec, no cheaper) - ch1-rp - ch1: three switches, four links.
    long viaPrimary = flight(t, "mmh") + SWITCH_NS + flight(t, "tor.to-pri") + SWITCH_NS + flight(t, "nt-pri.ch1")
        + SWITCH_NS + flight(t, "ch1");
    long viaSecondary = flight(t, "mmh") + SWITCH_NS + flight(t, "tor.to-sec") + SWITCH_NS + flight(t, "nt-sec.ch1")
        + SWITCH_NS + flight(t, "ch1");
    assertEquals(OptionalLong.of(Math.min(viaPrimary, viaSecondary)), LeastLatency.between(t, "mmh", "ch1", SWITCH_NS));
  }

  @Test
  void shouldFindNoLatencyWhenNoChainOfLinksJoinsTheTwo() throws Exception {
    Topology t = ladon();
    Topology cut = new Topology(t.name(), t.nodes(), t.switches(), t.endpoints(),
        t.links().stream().filter(l -> !l.touches("nic")).toList(), t.source(), t.globalMemorySpec(),
        t.controlPlane());
    assertTrue(LeastLatency.between(cut, "mmh", "nic", SWITCH_NS).isEmpty());
  }

  @Test
  void shouldRefuseAnUnknownComponentOrANegativeSwitchLatency() throws Exception {
    Topology t = ladon();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> LeastLatency.between(t, "mmh", "nic9", SWITCH_NS));
    assertTrue(e.getMessage().contains("nic9"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> LeastLatency.between(t, "mmh", "nic", -1));
  }
}
