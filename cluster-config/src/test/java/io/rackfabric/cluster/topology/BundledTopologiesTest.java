package io.rackfabric.cluster.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.topology.RouteExplanation.Hop;
import io.rackfabric.cluster.topology.RouteExplanation.Kind;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.tlp.Bdf;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class BundledTopologiesTest {

  static List<String> bundled() {
    return TopologyLoader.BUNDLED;
  }

  @ParameterizedTest
  @MethodSource("bundled")
  void shouldLoadWhenBundled(String name) throws TopologyException {
    Topology t = TopologyLoader.load(name);
    assertEquals(name, t.name());
    assertEquals(name + ".conf", t.source());
    assertFalse(t.nodes().isEmpty());
    // every switch's routing table builds, every endpoint has its link
    t.switches().forEach(s -> assertNotNull(t.routingTable(s.id())));
    t.endpoints().forEach(e -> assertTrue(t.linkAt(e.id()).isPresent(), e.id()));
  }

  // ---- Ladon Fig. 1(b), address routing

  @Test
  void shouldRouteB0040ToEp2Bar1WhenSentFromRcInFig1() throws TopologyException {
    RouteExplanation r = explain("fig1", "rc", 0xB0040L, false);

    assertEquals(Kind.DELIVERED, r.outcome().kind());
    assertEquals("ep2", r.outcome().component());
    assertEquals(1, r.outcome().bar());
    assertEquals(List.of("rc", "sw1", "sw2", "ep2"), components(r));

    Hop sw1 = r.hops().get(1);
    assertEquals("up", sw1.in());
    assertEquals("right", sw1.out());
    assertTrue(sw1.matched().contains("[0x90000..0xEFFFF]"), sw1.matched());

    Hop sw2 = r.hops().get(2);
    assertEquals("down", sw2.out());
    assertTrue(sw2.matched().contains("[0xA0000..0xEFFFF]"), sw2.matched());
    assertTrue(r.hops().get(3).matched().contains("BAR1"), r.hops().get(3).matched());
  }

  @Test
  void shouldGiveEndpointsTheBusBelowTheirPortWhenNoBdfIsWritten() throws TopologyException {
    Topology t = TopologyLoader.load("fig1");
    assertEquals("00:00.0", Bdf.format(t.endpoint("rc").orElseThrow().bdf()));
    assertEquals("02:00.0", Bdf.format(t.endpoint("ep1").orElseThrow().bdf()));
    assertEquals("05:00.0", Bdf.format(t.endpoint("ep2").orElseThrow().bdf()));
    assertEquals("00:00.0", Bdf.format(t.endpoint("srv2").orElseThrow().bdf()));
    PortConfig ntb = t.switchSpec("sw2").orElseThrow().port("ntb0").orElseThrow();
    assertEquals("01:00.0", Bdf.format(ntb.ntb().virtualSideBdf()));
  }

  // ---- Ladon Fig. 1(b), the NTB

  @Test
  void shouldLand0x90000At0x0OnTheRightServerWhenSentFromTheLeft() throws TopologyException {
    RouteExplanation r = explain("fig1", "rc", 0x90000L, false);

    assertEquals(Kind.DELIVERED, r.outcome().kind());
    assertEquals("srv2", r.outcome().component());
    assertEquals(0x0L, r.outcome().address());
    Hop sw2 = r.hopAt("sw2");
    assertEquals("ntb0", sw2.out());
    assertEquals("ntb0: 0x90000 -> 0x0", sw2.translations().get(0).toString());
    // the request enters srv2's domain with the NTB's proxy ID, not the RC's
    assertEquals(Bdf.of(1, 0, 0), sw2.requester());
  }

  @Test
  void shouldStayLocalWhenTheRightServerWrites0x0() throws TopologyException {
    RouteExplanation r = explain("fig1", "srv2", 0x0L, false);

    assertEquals(Kind.DELIVERED, r.outcome().kind());
    assertEquals("srv2", r.outcome().component());
    assertEquals(List.of("srv2"), components(r));
  }

  @Test
  void shouldNotRelayWhenTheRightServerWritesPastItsMemory() throws TopologyException {
    RouteExplanation write = explain("fig1", "srv2", 0x20000L, false);
    assertEquals(Kind.DROPPED, write.outcome().kind());
    assertEquals("sw2", write.outcome().component());
    assertTrue(write.outcome().reason().contains("one-way"), write.outcome().reason());

    RouteExplanation read = explain("fig1", "srv2", 0x90000L, true);
    assertEquals(Kind.UNSUPPORTED_REQUEST, read.outcome().kind());
    assertNull(read.hopAt("sw1"));
  }

  // ---- Multi-peer Fig. 4 and 6

  @Test
  void shouldPutSlot3OnBus4At0x80200000WhenLoadingMultipeer16() throws TopologyException {
    Topology t = TopologyLoader.load("multipeer16");
    PortConfig slot3 = t.switchSpec("pes").orElseThrow().port("slot3").orElseThrow();
    assertEquals(PortRole.DOWNSTREAM, slot3.role());
    assertEquals(1, slot3.bridge().primaryBus());
    assertEquals(4, slot3.bridge().secondaryBus());
    assertEquals(4, slot3.bridge().subordinateBus());
    assertEquals(new AddressRange(0x80200000L, 0x802FFFFFL), slot3.bridge().memory());
    assertEquals(Bdf.of(4, 0, 0), t.endpoint("epp3").orElseThrow().bdf());
    // Fig. 6: the upstream bridge has primary 0, secondary 1; there are 16 slots
    PortConfig up = t.switchSpec("pes").orElseThrow().port("up").orElseThrow();
    assertEquals(0, up.bridge().primaryBus());
    assertEquals(1, up.bridge().secondaryBus());
    assertEquals(17, t.switchSpec("pes").orElseThrow().ports().size());
    assertEquals(new AddressRange(0x80100000L, 0x801FFFFFL),
        t.switchSpec("pes").orElseThrow().port("slot2").orElseThrow().bridge().memory());
  }

  @Test
  void shouldRouteToSlot3WhenWritingTo0x80200010() throws TopologyException {
    RouteExplanation r = explain("multipeer16", "rc", 0x80200010L, false);
    assertEquals("slot3", r.hopAt("pes").out());
    assertEquals(Kind.DELIVERED, r.outcome().kind());
    assertEquals("epp3", r.outcome().component());
  }

  @Test
  void shouldDropWhenWritingToAnEmptySlot() throws TopologyException {
    RouteExplanation r = explain("multipeer16", "rc", 0x80400000L, false);
    assertEquals("slot5", r.hopAt("pes").out());
    assertEquals(Kind.DROPPED, r.outcome().kind());
    assertTrue(r.outcome().reason().contains("no link"), r.outcome().reason());
  }

  // ---- demo: the paths its comment promises

  @Test
  void shouldReachCh2MemoryWhenCh1WritesThroughBothNtbs() throws TopologyException {
    RouteExplanation r = explain("demo", "ch1", 0x3_0000_0040L, false);
    assertEquals(Kind.DELIVERED, r.outcome().kind());
    assertEquals("ch2", r.outcome().component());
    assertEquals(0x40L, r.outcome().address());
    Hop tor = r.hopAt("tor");
    assertEquals("ntb1", tor.in());
    assertEquals("ntb2", tor.out());
    assertEquals(2, tor.translations().size());
  }

  @Test
  void shouldReachMemOnTheLeafWhenCh2WritesOrReads() throws TopologyException {
    for (boolean read : new boolean[] {false, true}) {
      RouteExplanation r = explain("demo", "ch2", 0x1_8000_0010L, read);
      assertEquals(Kind.DELIVERED, r.outcome().kind());
      assertEquals("mem", r.outcome().component());
      assertEquals(List.of("ch2", "tor", "leaf", "mem"), components(r));
    }
  }

  @Test
  void shouldReachBothComputeHostsWhenTheManagementHostWrites() throws TopologyException {
    RouteExplanation ch1 = explain("demo", "mh", 0x1_0000_0100L, false);
    assertEquals("ch1", ch1.outcome().component());
    assertEquals(0x100L, ch1.outcome().address());
    RouteExplanation ch2 = explain("demo", "mh", 0x2_0000_0100L, false);
    assertEquals("ch2", ch2.outcome().component());
    assertEquals(0x100L, ch2.outcome().address());
  }

  @Test
  void shouldPlaceComponentsOnThreeNodesWhenLoadingDemo() throws TopologyException {
    Topology t = TopologyLoader.load("demo");
    assertEquals("node-a", t.seed().name());
    assertEquals(List.of("tor", "mh"), t.placedOn("node-a").stream().map(Component::id).toList());
    assertEquals("node-b", t.switchSpec("leaf").orElseThrow().node());
    assertEquals("node-c", t.endpoint("ch2").orElseThrow().node());
  }

  @Test
  void shouldFindTheLinksCrossingBetweenTwoNodesWhenDemoIsCut() throws TopologyException {
    Topology t = TopologyLoader.load("demo");
    List<LinkSpec> ab = t.linksBetween("node-b", "node-a");
    assertEquals(List.of("tor.ntb1 -- ch1", "tor.down -- leaf.up"), ab.stream().map(LinkSpec::toString).toList());
    assertEquals(List.of("tor.ntb1", "tor.down"), ab.stream().map(l -> t.endOn(l, "node-a").orElseThrow()).toList());
    assertEquals(List.of("ch1", "leaf.up"), ab.stream().map(l -> t.endOn(l, "node-b").orElseThrow()).toList());
    assertTrue(t.endOn(ab.get(0), "node-c").isEmpty());
    assertTrue(t.linksBetween("node-b", "node-c").isEmpty(), "no cable between ch1's and leaf's node and ch2's");
    assertTrue(t.linksBetween("node-a", "node-a").isEmpty(), "a link inside one node crosses nothing");
    assertFalse(t.pairBetween("node-a", "node-b"), "demo has no management-host pair");
  }

  @Test
  void shouldKnowThePairsNodesWhenLadonTestbedIsCut() throws TopologyException {
    Topology t = TopologyLoader.load("ladon-testbed");
    assertTrue(t.pairBetween("node-mmh", "node-bmh"));
    assertTrue(t.pairBetween("node-bmh", "node-mmh"));
    assertFalse(t.pairBetween("node-mmh", "node-switch"));
    assertTrue(t.linksBetween("node-mmh", "node-bmh").isEmpty(), "the MMH and the BMH reach each other through tor");
  }

  // ---- ladon-testbed: the global memory space of Ladon sections 4.1-4.2

  @Test
  void shouldReachCh2InTwoNtbHopsWhenCh1WritesThroughEitherPlane() throws TopologyException {
    long gib = 1L << 30;
    long tib = 1L << 40;
    // PMS1 via the primary NTBs: CH2 at MH 32GiB + 32GiB, seen by CH1 32GiB higher
    RouteExplanation primary = explain("ladon-testbed", "ch1", 96 * gib + 0x40, false);
    assertEquals("ch2", primary.outcome().component());
    assertEquals(0x40L, primary.outcome().address());
    assertNotNull(primary.hopAt("nt-pri"));
    assertNull(primary.hopAt("tor"));
    // PMS2 via the secondary NTBs
    RouteExplanation secondary = explain("ladon-testbed", "ch1", tib + 96 * gib + 0x40, false);
    assertEquals("ch2", secondary.outcome().component());
    assertNotNull(secondary.hopAt("nt-sec"));
  }

  @Test
  void shouldReachEachComputeHostWhenTheMmhWritesThroughEitherPlane() throws TopologyException {
    long gib = 1L << 30;
    long tib = 1L << 40;
    assertEquals("ch1", explain("ladon-testbed", "mmh", 32 * gib, false).outcome().component());
    assertEquals("ch2", explain("ladon-testbed", "mmh", 64 * gib, false).outcome().component());
    assertEquals("ch1", explain("ladon-testbed", "mmh", tib + 32 * gib, false).outcome().component());
    assertEquals("ch2", explain("ladon-testbed", "mmh", tib + 64 * gib, false).outcome().component());
  }

  @Test
  void shouldRefuseTheBmhWhenVs2HoldsOnlyItsOwnPort() throws TopologyException {
    RouteExplanation r = explain("ladon-testbed", "bmh", 32L << 30, true);
    assertEquals(Kind.UNSUPPORTED_REQUEST, r.outcome().kind());
    assertEquals("tor", r.outcome().component());
  }

  private static RouteExplanation explain(String topology, String from, long address, boolean read)
      throws TopologyException {
    return new RouteExplainer(TopologyLoader.load(topology)).explain(from, address, read);
  }

  private static List<String> components(RouteExplanation r) {
    return r.hops().stream().map(Hop::component).toList();
  }
}
