package io.rackfabric.cluster.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.topology.RouteExplanation.Kind;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import java.util.List;
import org.junit.jupiter.api.Test;

class RouteExplainerTest {

  @Test
  void shouldStopAtTheRevisitedPortWhenNtbsFormALoop() throws TopologyException {
    // sw1.n relays 0x8000 to sw2.n2's virtual side, which relays it to sw2.n3, which relays it
    // back into sw1 through n4, and round again. Hardware would go round until the NTBs'
    // requester-ID tables fill (17 hops); the explanation stops where the loop closes.
    Topology t = TopologyLoader.parse(String.join("\n",
        "rack {",
        "  name = loop",
        "  nodes = [ { name = a, host = h, port = 1 } ]",
        "  switches = [",
        "    { id = sw1, node = a, ports = [",
        "        { name = n, number = 1, role = ntb, link-bars = [ { base = \"0x8000\", size = \"4KiB\", translate-to = \"0x8000\" } ] }",
        "        { name = n4, number = 4, role = ntb, virtual-bars = [ { base = \"0x8000\", size = \"4KiB\", translate-to = \"0x8000\" } ] }",
        "      ] }",
        "    { id = sw2, node = a, ports = [",
        "        { name = n2, number = 2, role = ntb, virtual-bars = [ { base = \"0x8000\", size = \"4KiB\", translate-to = \"0x8000\" } ] }",
        "        { name = n3, number = 3, role = ntb, link-bars = [ { base = \"0x8000\", size = \"4KiB\", translate-to = \"0x8000\" } ] }",
        "      ] }",
        "  ]",
        "  links = [ { a = sw1.n, b = sw2.n2 }, { a = sw2.n3, b = sw1.n4 } ]",
        "}"), "loop.conf");

    RouteExplanation r = new RouteExplainer(t).explain("sw1.n4", 0x8010L, false);

    assertEquals(Kind.DROPPED, r.outcome().kind());
    assertEquals("arrives at sw1.n4 a second time (at 0x8010): the links and windows form a loop; stopped there",
        r.outcome().reason());
    assertEquals("sw1", r.outcome().component());
    assertEquals(3, r.hops().size(), "through sw1, through sw2, back at sw1.n4");
  }

  @Test
  void shouldStopAtTheRevisitedPortWhenBridgesFormALoop() {
    // The loader refuses this (a domain must be a tree), so build it by hand: sw1.d1 leads to
    // sw2, whose d1 leads back up into sw1, and both claim 0x1000.
    AddressRange window = new AddressRange(0x1000, 0x1FFF);
    List<PortConfig> ports = List.of(
        new PortConfig("up", 0, PortRole.UPSTREAM, 1, new BridgeRegisters(0, 1, 2, null, null), null),
        new PortConfig("d1", 1, PortRole.DOWNSTREAM, 1, new BridgeRegisters(1, 2, 2, window, null), null));
    Topology t = new Topology("loop",
        List.of(new NodeSpec("a", "h", 1)),
        List.of(new SwitchSpec("sw1", "a", ports, List.of()), new SwitchSpec("sw2", "a", ports, List.of())),
        List.of(),
        List.of(new LinkSpec("sw1.d1", "sw2.up", LinkParameters.gen3x4()),
            new LinkSpec("sw2.d1", "sw1.up", LinkParameters.gen3x4())),
        "hand-made");

    RouteExplanation r = new RouteExplainer(t).explain("sw1.up", 0x1000L, true);

    assertEquals(Kind.DROPPED, r.outcome().kind());
    assertTrue(r.outcome().reason().startsWith("arrives at sw1.up a second time"), r.outcome().reason());
    assertEquals(3, r.hops().size(), "through sw1, through sw2, back at sw1.up");
  }

  @Test
  void shouldExplainEachCopyWhenAWriteHitsAMulticastGroup() throws TopologyException {
    Topology t = TopologyLoader.parse(String.join("\n",
        "rack {",
        "  name = mc",
        "  nodes = [ { name = a, host = h, port = 1 } ]",
        "  switches = [",
        "    { id = sw, node = a, ports = [",
        "        { name = up, number = 0, role = upstream, buses = [0, 1, 3] }",
        "        { name = d1, number = 1, role = downstream, buses = [1, 2, 2], memory = [\"0x10000\", \"0x1FFFF\"] }",
        "        { name = d2, number = 2, role = downstream, buses = [1, 3, 3], memory = [\"0x20000\", \"0x2FFFF\"] }",
        "      ], multicast = [ { group = 0, base = \"0x10000\", size = \"4KiB\", members = [d1, d2] } ] }",
        "  ]",
        "  endpoints = [",
        "    { id = rc, node = a, root = true, bars = [ { base = \"0x0\", size = \"64KiB\" } ] }",
        "    { id = e1, node = a, bars = [ { base = \"0x10000\", size = \"64KiB\" } ] }",
        "    { id = e2, node = a, bars = [ { base = \"0x20000\", size = \"64KiB\" } ] }",
        "  ]",
        "  links = [ { a = rc, b = sw.up }, { a = sw.d1, b = e1 }, { a = sw.d2, b = e2 } ]",
        "}"), "mc.conf");
    RouteExplainer explainer = new RouteExplainer(t);

    RouteExplanation write = explainer.explain("rc", 0x10010L, false);
    assertEquals(Kind.MULTICAST, write.outcome().kind());
    assertEquals(2, write.copies().size());
    assertEquals("e1", write.copies().get(0).outcome().component());
    assertEquals(Kind.DELIVERED, write.copies().get(0).outcome().kind());
    // e2's BAR does not hold the group's address: that copy is dropped, so not all delivered
    assertEquals(Kind.DROPPED, write.copies().get(1).outcome().kind());
    assertFalse(write.delivered());
    assertTrue(write.toText().contains("copy 2 of 2:"), write.toText());

    // reads are never multicast: address routing sends it to d1
    RouteExplanation read = explainer.explain("rc", 0x10010L, true);
    assertEquals(Kind.DELIVERED, read.outcome().kind());
    assertEquals(List.of(), read.copies());
  }

  @Test
  void shouldStartFromASwitchPortWhenGivenSwitchDotPort() throws TopologyException {
    RouteExplanation r = new RouteExplainer(TopologyLoader.load("fig1"))
        .explain("sw2.down", 0x90040L, false);
    // from below EP2's port: peer-to-peer into the NTB, which relays it to srv2
    assertEquals("srv2", r.outcome().component());
    assertEquals(0x40L, r.outcome().address());
  }

  @Test
  void shouldRenderTranslationsAndProxyIdsWhenCrossingAnNtb() throws TopologyException {
    String text = new RouteExplainer(TopologyLoader.load("fig1"))
        .explain("rc", 0x90040L, false).toText();
    assertTrue(text.startsWith("MemWrite 0x90040 from rc (requester 00:00.0)\n"), text);
    assertTrue(text.contains("NTB ntb0: 0x90040 -> 0x40 (link -> virtual), requester 00:00.0 -> 01:00.0"), text);
    assertTrue(text.endsWith("delivered: srv2 memory BAR0 [0x0..0xFFFF] at 0x40\n"), text);
  }

  @Test
  void shouldRejectTheStartWhenNoComponentHasThatId() throws TopologyException {
    RouteExplainer explainer = new RouteExplainer(TopologyLoader.load("fig1"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> explainer.explain("ep7", 0, false));
    assertTrue(e.getMessage().startsWith("no component 'ep7' in fig1.conf"), e.getMessage());
  }
}
