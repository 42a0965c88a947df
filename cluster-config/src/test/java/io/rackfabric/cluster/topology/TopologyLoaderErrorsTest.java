package io.rackfabric.cluster.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each kind of bad input, written to a file: the message must name the file, the line the problem
 * is on, and the key. The base topology is valid; each test changes one line of it.
 */
class TopologyLoaderErrorsTest {

  /** A valid rack, one line per entry so that tests can point at lines. */
  private static final List<String> BASE = List.of(
      "rack {",                                                                                   // 1
      "  name = t",                                                                               // 2
      "  nodes = [ { name = n1, host = \"127.0.0.1\", port = 25521 } ]",                        // 3
      "  switches = [",                                                                           // 4
      "    { id = sw1, node = n1, ports = [",                                                     // 5
      "        { name = up, number = 0, role = upstream, buses = [0, 1, 3], memory = [\"0x1000\", \"0xFFFF\"] }", // 6
      "        { name = d1, number = 1, role = downstream, buses = [1, 2, 2], memory = [\"0x1000\", \"0x1FFF\"] }", // 7
      "        { name = d2, number = 2, role = downstream, buses = [1, 3, 3], memory = [\"0x2000\", \"0x2FFF\"] }", // 8
      "        { name = nt, number = 3, role = ntb, link-bars = [ { base = \"0x8000\", size = \"4KiB\", translate-to = \"0x0\" } ] }", // 9
      "      ] }",                                                                                // 10
      "  ]",                                                                                      // 11
      "  endpoints = [",                                                                          // 12
      "    { id = rc, node = n1, root = true, bars = [ { base = \"0x100000\", size = \"1MiB\" } ] }", // 13
      "    { id = ep1, node = n1, bars = [ { base = \"0x1000\", size = \"4KiB\" } ] }",           // 14
      "    { id = ep2, node = n1, bars = [ { base = \"0x2000\", size = \"4KiB\" } ] }",           // 15
      "    { id = host2, node = n1, root = true, bars = [ { base = \"0x0\", size = \"4KiB\" } ] }", // 16
      "  ]",                                                                                      // 17
      "  links = [",                                                                              // 18
      "    { a = rc, b = sw1.up }",                                                               // 19
      "    { a = sw1.d1, b = ep1 }",                                                              // 20
      "    { a = sw1.d2, b = ep2, lanes = 8 }",                                                   // 21
      "    { a = sw1.nt, b = host2 }",                                                            // 22
      "  ]",                                                                                      // 23
      "}");                                                                                       // 24

  @TempDir Path dir;

  @Test
  void shouldLoadWhenTheBaseIsUnchanged() throws Exception {
    Topology t = TopologyLoader.load(write("good.conf", BASE));
    assertEquals(4, t.endpoints().size());
    // host2 has memory at 0x0 like nobody else, and rc's does not clash with it: other domain
    assertEquals(8, t.links().get(2).params().lanes());
  }

  @Test
  void shouldNameFileLineAndKeyWhenLanesAreInvalid() throws Exception {
    String m = problems(edit(21, "    { a = sw1.d2, b = ep2, lanes = 3 }"));
    assertContains(m, "bad.conf:21: rack.links[2].lanes: lanes=3 not in {1,2,4,8,16}");
  }

  @Test
  void shouldListTheAllowedKeysWhenAPortKeyIsUnknown() throws Exception {
    String m = problems(edit(7,
        "        { name = d1, number = 1, role = downstream, buses = [1, 2, 2], mem = [\"0x1000\", \"0x1FFF\"] }"));
    assertContains(m, "bad.conf:7: rack.switches[0].ports[1].mem: unknown key (did you mean 'memory'?)");
    assertContains(m, "allowed here: name, number, role, virtual-switch, buses, memory");
  }

  @Test
  void shouldRejectTheKeyWhenUnknownAtTheRackLevel() throws Exception {
    String m = problems(edit(2, "  name = t, colour = blue"));
    assertContains(m, "bad.conf:2: rack.colour: unknown key; allowed here: name, nodes");
  }

  @Test
  void shouldReportTheObjectLineWhenARequiredKeyIsMissing() throws Exception {
    String m = problems(edit(8,
        "        { name = d2, role = downstream, buses = [1, 3, 3], memory = [\"0x2000\", \"0x2FFF\"] }"));
    assertContains(m, "bad.conf:8: rack.switches[0].ports[2].number: missing (required)");
  }

  @Test
  void shouldReportTheRackLineWhenTheNameIsMissing() throws Exception {
    String m = problems(edit(2, ""));
    assertContains(m, "bad.conf:1: rack.name: missing (required)");
  }

  @Test
  void shouldRejectTheSecondWhenComponentIdsRepeat() throws Exception {
    String m = problems(edit(15,
        "    { id = ep1, node = n1, bars = [ { base = \"0x2000\", size = \"4KiB\" } ] }"));
    assertContains(m, "bad.conf:15: rack.endpoints[2].id: duplicate component id 'ep1' (first at line 14)");
  }

  @Test
  void shouldRejectTheSecondWhenPortNamesOrNumbersRepeat() throws Exception {
    String m = problems(edit(8,
        "        { name = d1, number = 1, role = downstream, buses = [1, 3, 3], memory = [\"0x2000\", \"0x2FFF\"] }"));
    assertContains(m, "bad.conf:8: rack.switches[0].ports[2].name: duplicate port name 'd1' in switch sw1 (first at line 7)");

    m = problems(edit(8,
        "        { name = d2, number = 1, role = downstream, buses = [1, 3, 3], memory = [\"0x2000\", \"0x2FFF\"] }"));
    assertContains(m, "bad.conf:8: rack.switches[0].ports[2].number: port d2 has number=1, already used by port d1 (line 7)");
  }

  @Test
  void shouldRejectPlacementWhenTheNodeIsUnknown() throws Exception {
    String m = problems(edit(14,
        "    { id = ep1, node = n9, bars = [ { base = \"0x1000\", size = \"4KiB\" } ] }"));
    assertContains(m, "bad.conf:14: rack.endpoints[1].node: ep1 is placed on node 'n9', which rack.nodes does not define (nodes: n1)");
  }

  @Test
  void shouldRejectLinkEndsWhenTheyNameUnknownComponentsOrPorts() throws Exception {
    String m = problems(edit(20, "    { a = sw1.d9, b = ep9 }"));
    assertContains(m, "bad.conf:20: rack.links[1].a: switch sw1 has no port 'd9' (ports: up, d1, d2, nt)");
    assertContains(m, "bad.conf:20: rack.links[1].b: 'ep9' names no switch or endpoint");

    m = problems(edit(20, "    { a = sw1, b = ep1.x }"));
    assertContains(m, "bad.conf:20: rack.links[1].a: 'sw1' is a switch: name one of its ports, e.g. sw1.up");
    assertContains(m, "bad.conf:20: rack.links[1].b: 'ep1' is an endpoint and has no ports: write just ep1");
  }

  @Test
  void shouldRejectTheSecondLinkWhenAnEndIsUsedTwice() throws Exception {
    String m = problems(edit(21, "    { a = sw1.d1, b = ep2 }"));
    assertContains(m, "bad.conf:21: rack.links[2].a: sw1.d1 is already used by the link at line 20 (rack.links[1])");
  }

  @Test
  void shouldRejectAddressesWhenOutside64Bits() throws Exception {
    String m = problems(edit(14,
        "    { id = ep1, node = n1, bars = [ { base = \"0x1_0000_0000_0000_0000\", size = \"4KiB\" } ] }"));
    assertContains(m, "bad.conf:14: rack.endpoints[1].bars[0].base: '0x1_0000_0000_0000_0000' is outside 64 bits");

    m = problems(edit(14,
        "    { id = ep1, node = n1, bars = [ { base = \"0xFFFF_FFFF_FFFF_F000\", size = \"8KiB\" } ] }"));
    assertContains(m, "bad.conf:14: rack.endpoints[1].bars[0].size: base 0xFFFFFFFFFFFFF000 + size 0x2000 runs past the 64-bit address space");
  }

  @Test
  void shouldNameBothPortsAndRangesWhenWindowsOverlap() throws Exception {
    String m = problems(edit(8,
        "        { name = d2, number = 2, role = downstream, buses = [1, 3, 3], memory = [\"0x1800\", \"0x2FFF\"] }"));
    assertContains(m, "bad.conf:8: rack.switches[0].ports[2].memory: memory window [0x1800..0x2FFF] of port d2"
        + " overlaps memory window [0x1000..0x1FFF] of port d1 (line 7), both in virtual switch 1 of sw1");
  }

  @Test
  void shouldAllowOverlapWhenPortsAreInDifferentVirtualSwitches() throws Exception {
    List<String> lines = new ArrayList<>(BASE);
    lines.set(7, "        { name = d2, number = 2, role = downstream, virtual-switch = 2, buses = [1, 3, 3], memory = [\"0x1800\", \"0x2FFF\"] }");
    // d2 is alone in VS2, so ep2's BAR no longer shares a domain with ep1
    TopologyLoader.load(write("ok.conf", lines));
  }

  @Test
  void shouldRejectAnNtbLinkBarWhenItOverlapsADownstreamWindow() throws Exception {
    String m = problems(edit(9,
        "        { name = nt, number = 3, role = ntb, link-bars = [ { base = \"0x2800\", size = \"4KiB\", translate-to = \"0x0\" } ] }"));
    assertContains(m, "bad.conf:9: rack.switches[0].ports[3].link-bars[0].base: link-side BAR [0x2800..0x37FF] of port nt"
        + " overlaps memory window [0x2000..0x2FFF] of port d2");
  }

  @Test
  void shouldRejectBarsWhenEndpointsOfOneDomainOverlap() throws Exception {
    String m = problems(edit(15,
        "    { id = ep2, node = n1, bars = [ { base = \"0x1800\", size = \"4KiB\" } ] }"));
    assertContains(m, "bad.conf:15: rack.endpoints[2].bars[0].base: BAR0 [0x1800..0x27FF] of ep2 overlaps BAR0"
        + " [0x1000..0x1FFF] of ep1 (line 14); both are in the same PCIe domain");
  }

  @Test
  void shouldRejectBarsWhenOneEndpointsBarsOverlap() throws Exception {
    String m = problems(edit(14,
        "    { id = ep1, node = n1, bars = [ { base = \"0x1000\", size = \"4KiB\" }, { base = \"0x1FFF\", size = \"16\" } ] }"));
    assertContains(m, "bad.conf:14: rack.endpoints[1].bars[1].base: BAR1 [0x1FFF..0x200E] of ep1 overlaps its BAR0 [0x1000..0x1FFF]");
  }

  @Test
  void shouldRejectAnNtbBarWhenItsTranslationRunsPast64Bits() throws Exception {
    String m = problems(edit(9,
        "        { name = nt, number = 3, role = ntb, link-bars = [ { base = \"0x8000\", size = \"4KiB\", translate-to = \"0xFFFF_FFFF_FFFF_F800\" } ] }"));
    assertContains(m, "bad.conf:9: rack.switches[0].ports[3].link-bars[0].translate-to: translate-to=0xFFFFFFFFFFFFF800"
        + " with the 4KiB window [0x8000..0x8FFF] runs past the 64-bit address space");
  }

  @Test
  void shouldReportTheLineWhenHoconSyntaxIsBroken() throws Exception {
    String m = problems(edit(20, "    { a = sw1.d1, b = ep1 "));
    assertTrue(m.startsWith("bad.conf:"), m);
    assertTrue(m.contains(": syntax: "), m);
    assertFalse(m.contains("Exception"), m);
  }

  @Test
  void shouldReportWhereParsingStoppedWhenAListIsUnclosed() throws Exception {
    String m = problems(List.of("rack {", "  name = t", "  nodes = [ { name = n1 }", "}"));
    assertContains(m, "bad.conf:4: syntax:");
  }

  @Test
  void shouldSayFileNotFoundWhenThePathDoesNotExist() {
    Path missing = dir.resolve("nope.conf");
    TopologyException e = assertThrows(TopologyException.class, () -> TopologyLoader.load(missing));
    assertEquals(missing + ": file not found", e.getMessage());
  }

  @Test
  void shouldListBundledNamesWhenTheNameIsUnknown() {
    TopologyException e = assertThrows(TopologyException.class, () -> TopologyLoader.load("fig9"));
    assertContains(e.getMessage(), "no bundled topology 'fig9' (bundled: fig1, multipeer16, ladon-testbed, demo, ");
    assertContains(e.getMessage(), "(bundled: " + String.join(", ", TopologyLoader.BUNDLED) + ")");
  }

  @Test
  void shouldReportEveryProblemInLineOrderWhenThereAreSeveral() throws Exception {
    List<String> lines = new ArrayList<>(BASE);
    lines.set(20, "    { a = sw1.d2, b = ep2, lanes = 3 }");
    lines.set(13, "    { id = ep1, node = n9, bars = [ { base = \"0x1000\", size = \"4KiB\" } ] }");
    lines.set(2, "  nodes = [ { name = n1, host = \"127.0.0.1\", port = 70000 } ]");
    Path file = write("bad.conf", lines);
    TopologyException e = assertThrows(TopologyException.class, () -> TopologyLoader.load(file));
    List<String> p = e.problems().stream().map(s -> s.replace(file.toString(), "bad.conf")).toList();
    assertEquals(3, p.size(), e.getMessage());
    assertTrue(p.get(0).startsWith("bad.conf:3: rack.nodes[0].port: port=70000 not in [1,65535]"), p.get(0));
    assertTrue(p.get(1).startsWith("bad.conf:14: rack.endpoints[1].node:"), p.get(1));
    assertTrue(p.get(2).startsWith("bad.conf:21: rack.links[2].lanes:"), p.get(2));
    assertEquals(String.join(System.lineSeparator(), e.problems()), e.getMessage());
  }

  @Test
  void shouldRejectADurationWhenItHasNoUnit() throws Exception {
    String m = problems(edit(21, "    { a = sw1.d2, b = ep2, propagation = 5 }"));
    assertContains(m, "bad.conf:21: rack.links[2].propagation: propagation=5 needs a unit, e.g. 5ns");
  }

  @Test
  void shouldRejectABdfWhenMalformed() throws Exception {
    String m = problems(edit(14,
        "    { id = ep1, node = n1, bdf = \"2:0\", bars = [ { base = \"0x1000\", size = \"4KiB\" } ] }"));
    assertContains(m, "bad.conf:14: rack.endpoints[1].bdf: bdf='2:0' is not bus:device.function, e.g. \"02:00.0\"");
  }

  @Test
  void shouldRejectTheSecondUpstreamPortWhenInTheSameVirtualSwitch() throws Exception {
    String m = problems(edit(7,
        "        { name = d1, number = 1, role = upstream, buses = [1, 2, 2], memory = [\"0x1000\", \"0x1FFF\"] }"));
    assertContains(m, "bad.conf:7: rack.switches[0].ports[1].role: virtual switch 1 of sw1 already has upstream port up (line 6)");
  }

  @Test
  void shouldRejectBridgeKeysWhenThePortIsAnNtb() throws Exception {
    String m = problems(edit(9,
        "        { name = nt, number = 3, role = ntb, buses = [1, 4, 4] }"));
    assertContains(m, "bad.conf:9: rack.switches[0].ports[3].buses: not allowed on an ntb port");
  }

  @Test
  void shouldRejectTheLinkWhenARootSitsBelowADownstreamPort() throws Exception {
    String m = problems(edit(20, "    { a = sw1.d1, b = host2 }", 22, "    { a = sw1.nt, b = ep1 }"));
    assertContains(m, "bad.conf:20: rack.links[1].b: link sw1.d1 -- host2: root host2 cannot sit below downstream port sw1.d1");
    assertContains(m, "bad.conf:22: rack.links[3].b: link sw1.nt -- ep1: ep1 on an ntb port's virtual side");
  }

  @Test
  void shouldRejectTheLinkWhenItClosesALoopInOneDomain() throws Exception {
    String m = problems(List.of(
        "rack {",
        "  name = loop",
        "  nodes = [ { name = n1, host = h, port = 1 } ]",
        "  switches = [",
        "    { id = sw1, node = n1, ports = [ { name = up, number = 0, role = upstream, buses = [0, 1, 2] }"
            + ", { name = d1, number = 1, role = downstream, buses = [1, 2, 2] } ] }",
        "    { id = sw2, node = n1, ports = [ { name = up, number = 0, role = upstream, buses = [0, 1, 2] }"
            + ", { name = d1, number = 1, role = downstream, buses = [1, 2, 2] } ] }",
        "  ]",
        "  links = [",
        "    { a = sw1.d1, b = sw2.up }",
        "    { a = sw2.d1, b = sw1.up }",
        "  ]",
        "}"));
    assertContains(m, "bad.conf:10: rack.links[1].b: link sw2.d1 -- sw1.up closes a loop");
  }

  @Test
  void shouldRejectAnEndpointWhenNoLinkAttachesIt() throws Exception {
    String m = problems(edit(21, ""));
    assertContains(m, "bad.conf:15: rack.endpoints[2].id: endpoint ep2 is attached to no link");
  }

  @Test
  void shouldRejectAValueWhenItHasTheWrongType() throws Exception {
    String m = problems(edit(6,
        "        { name = up, number = zero, role = upstream, buses = [0, 1, 3], memory = [\"0x1000\", \"0xFFFF\"] }"));
    assertContains(m, "bad.conf:6: rack.switches[0].ports[0].number: expected an integer, got \"zero\"");
  }

  // ---- helpers

  private List<String> edit(int line, String text) {
    List<String> lines = new ArrayList<>(BASE);
    lines.set(line - 1, text);
    return lines;
  }

  private List<String> edit(int line, String text, int line2, String text2) {
    List<String> lines = edit(line, text);
    lines.set(line2 - 1, text2);
    return lines;
  }

  private String problems(List<String> lines) throws IOException {
    Path file = write("bad.conf", lines);
    TopologyException e = assertThrows(TopologyException.class, () -> TopologyLoader.load(file));
    // messages name the file as the caller gave it; report relative to it
    return e.getMessage().replace(file.toString(), "bad.conf");
  }

  private Path write(String name, List<String> lines) throws IOException {
    Path file = dir.resolve(name);
    Files.write(file, lines);
    return file;
  }

  private static void assertContains(String text, String expected) {
    assertTrue(text.contains(expected), () -> "expected to find\n  " + expected + "\nin\n  "
        + String.join("\n  ", Arrays.asList(text.split("\n"))));
  }
}
