package io.rackfabric.cluster.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.address.AddressRange;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The topology keys of Device Lending's peer-to-peer path: {@code acs-redirect} and {@code relay}. */
class RootComplexKeysTest {

  static String rack(String upKeys, String d1Keys, String ntKeys, String rcKeys, String ep1Keys) {
    return String.join("\n",
        "rack {",
        "  name = t",
        "  nodes = [ { name = n1, host = \"127.0.0.1\", port = 25521 } ]",
        "  switches = [ { id = sw1, node = n1, ports = [",
        "    { name = up, number = 0, role = upstream, buses = [0, 1, 3], memory = [\"0x1000\", \"0xFFFF\"]" + upKeys + " }",
        "    { name = d1, number = 1, role = downstream, buses = [1, 2, 2], memory = [\"0x1000\", \"0x1FFF\"]" + d1Keys + " }",
        "    { name = d2, number = 2, role = downstream, buses = [1, 3, 3], memory = [\"0x2000\", \"0x2FFF\"] }",
        "    { name = nt, number = 3, role = ntb, link-bars = [ { base = \"0x8000\", size = \"4KiB\", translate-to = \"0x0\" } ]"
            + ntKeys + " }",
        "  ] } ]",
        "  endpoints = [",
        "    { id = rc, node = n1, root = true, bars = [ { base = \"0x100000\", size = \"1MiB\" } ]" + rcKeys + " }",
        "    { id = ep1, node = n1, bars = [ { base = \"0x1000\", size = \"4KiB\" } ]" + ep1Keys + " }",
        "    { id = ep2, node = n1, bars = [ { base = \"0x2000\", size = \"4KiB\" } ] }",
        "    { id = host2, node = n1, root = true, bars = [ { base = \"0x0\", size = \"4KiB\" } ] }",
        "  ]",
        "  links = [ { a = rc, b = sw1.up }, { a = sw1.d1, b = ep1 }, { a = sw1.d2, b = ep2 }, { a = sw1.nt, b = host2 } ]",
        "}");
  }

  static String problems(String text) {
    return assertThrows(TopologyException.class, () -> TopologyLoader.parse(text, "bad.conf")).getMessage();
  }

  @Test
  void shouldBeOffWhenTheKeysAreAbsent() throws TopologyException {
    Topology t = TopologyLoader.parse(rack("", "", "", "", ""), "t.conf");

    assertFalse(t.routingTable("sw1").port(1).acsRedirect());
    assertFalse(t.endpoint("rc").orElseThrow().relay());
    assertFalse(TopologyWriter.write(t).contains("acs-redirect"));
    assertFalse(TopologyWriter.write(t).contains("relay"));
  }

  @Test
  void shouldLoadWriteAndLoadBackEqualWhenAPortRedirectsAndTheRootRelays() throws TopologyException {
    Topology t = TopologyLoader.parse(rack("", ", acs-redirect = true", "", ", relay = true", ""), "t.conf");

    assertTrue(t.routingTable("sw1").port(1).acsRedirect());
    assertFalse(t.routingTable("sw1").port(2).acsRedirect());
    assertTrue(t.endpoint("rc").orElseThrow().relay());
    assertEquals(List.of(new AddressRange(0x1000, 0xFFFF)), t.relayWindows("rc"), "the upstream port's window");
    assertEquals(List.of(), t.relayWindows("host2"), "a root on an ntb port sits on no upstream port");
    String text = TopologyWriter.write(t);
    assertTrue(text.contains("acs-redirect = true") && text.contains("relay = true"), text);
    assertEquals(t, TopologyLoader.parse(text, "t.conf"));
  }

  @Test
  void shouldExplainThePathThroughTheRootWhenAcsRedirectsToARelayingRoot() throws TopologyException {
    Topology t = TopologyLoader.parse(rack("", ", acs-redirect = true", "", ", relay = true", ""), "t.conf");

    for (boolean read : new boolean[] {true, false}) {
      RouteExplanation e = new RouteExplainer(t).explain("ep1", 0x2010, read);

      assertEquals(RouteExplanation.Kind.DELIVERED, e.outcome().kind(), e.toString());
      assertEquals("ep2", e.outcome().component());
      assertEquals(List.of("ep1", "sw1", "rc", "sw1", "ep2"),
          e.hops().stream().map(RouteExplanation.Hop::component).toList());
    }
    RouteExplanation direct = new RouteExplainer(TopologyLoader.parse(rack("", "", "", "", ""), "t.conf"))
        .explain("ep1", 0x2010, true);
    assertEquals(List.of("ep1", "sw1", "ep2"), direct.hops().stream().map(RouteExplanation.Hop::component).toList());
  }

  @Test
  void shouldRefuseAcsRedirectWhenThePortIsNotDownstream() {
    assertTrue(problems(rack(", acs-redirect = true", "", "", "", ""))
        .contains("rack.switches[0].ports[0].acs-redirect: not allowed on an upstream port"));
    assertTrue(problems(rack("", "", ", acs-redirect = true", "", ""))
        .contains("rack.switches[0].ports[3].acs-redirect: not allowed on an ntb port"));
  }

  @Test
  void shouldRefuseRelayWhenTheEndpointIsNotARootOnAnUpstreamPort() {
    assertTrue(problems(rack("", "", "", "", ", relay = true"))
        .contains("rack.endpoints[1].relay: relay = true is for a root complex (root = true); ep1 is a device"));
    String onNtb = rack("", "", "", "", "").replace("{ id = host2, node = n1, root = true,",
        "{ id = host2, node = n1, root = true, relay = true,");
    assertTrue(problems(onNtb).contains("rack.endpoints[3].relay: relaying root host2 is linked to sw1.nt"), problems(onNtb));
  }
}
