package io.rackfabric.cluster.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.topology.LadonRackGenerator.Placement;
import io.rackfabric.cluster.topology.RouteExplanation.Kind;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.Plane;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The optional top-level {@code global-memory} section. Bad files are the bundled ladon-testbed
 * with one edit, so that everything but the edit is known to be valid.
 */
class GlobalMemorySectionTest {

  private static final String SECTION = "global-memory {";

  @TempDir Path dir;

  @Test
  void shouldExposeThePapersLayoutAndHostIdsWhenTheTestbedIsLoaded() throws Exception {
    Topology t = TopologyLoader.load("ladon-testbed");
    assertEquals(GlobalMemoryLayout.paper(2), t.globalMemory().orElseThrow());
    assertEquals(List.of("ch1", "ch2"), t.computeHostIds());
  }

  @Test
  void shouldSummariseTheSectionWhenTheTopologyIsChecked() throws Exception {
    String summary = TopologyCheck.summary(TopologyLoader.load("ladon-testbed"));
    assertTrue(summary.contains("\nglobal memory\n  L = 32GiB, P = 1TiB, 48-bit; compute hosts"
        + " CH1 ch1, CH2 ch2 (rack memmap --topology ladon-testbed.conf prints the map)\n"
        + "  management host mmh: runs the data-plane fail-over; control page 0x1_0000 (4KiB) in every host's"
        + " memory, the MH's copy in PMS2 at 0x1F8_0001_0000\n"), summary);
    assertFalse(TopologyCheck.summary(TopologyLoader.load("demo")).contains("global memory"));
  }

  @Test
  void shouldHaveNoLayoutWhenTheSectionIsAbsent() throws Exception {
    Topology t = TopologyLoader.load("demo");
    assertTrue(t.globalMemory().isEmpty());
    assertEquals(List.of(), t.computeHostIds());
  }

  @Test
  void shouldUseThePapersNumbersWhenOnlyTheHostsAreGiven() throws Exception {
    Topology t = TopologyLoader.load(write(testbed()
        .replace("  local-subspace = 32GiB\n", "")
        .replace("  pms2-base = 1TiB\n", "")
        .replace("  address-bits = 48\n", "")));
    assertEquals(GlobalMemoryLayout.paper(2), t.globalMemory().orElseThrow());
  }

  @Test
  void shouldRouteEveryLayoutAddressToItsHostWhenTheTestbedIsExplained() throws Exception {
    // The layout and the file's BARs must agree with the data plane's own routing.
    Topology t = TopologyLoader.load("ladon-testbed");
    GlobalMemoryLayout layout = t.globalMemory().orElseThrow();
    RouteExplainer explainer = new RouteExplainer(t);
    for (Plane plane : Plane.values()) {
      for (int viewer = 1; viewer <= 2; viewer++) {
        for (int target = 1; target <= 2; target++) {
          if (target == viewer) {
            // the layout says nothing answers a CH in its own range; so must the data plane
            long own = layout.chRangeOf(viewer, plane).base() + 0x40;
            assertFalse(layout.resolve(viewer, own).mapped());
            assertEquals(Kind.UNSUPPORTED_REQUEST,
                explainer.explain("ch" + viewer, own, true).outcome().kind(), "own " + plane);
            continue;
          }
          long address = layout.chAddress(viewer, target, 0x40, plane);
          RouteExplanation r = explainer.explain("ch" + viewer, address, true);
          String at = "ch" + viewer + " -> ch" + target + " " + plane;
          assertEquals(Kind.DELIVERED, r.outcome().kind(), at + "\n" + r.toText());
          assertEquals("ch" + target, r.outcome().component(), at);
          assertEquals(0x40, r.outcome().address(), at);
        }
      }
      for (int target = 1; target <= 2; target++) {
        RouteExplanation r = explainer.explain("mmh", layout.mhAddress(target, 0x100, plane), true);
        assertEquals("ch" + target, r.outcome().component(), plane + "\n" + r.toText());
        assertEquals(0x100, r.outcome().address());
      }
    }
  }

  @Test
  void shouldNameTheKeyAndLineWhenTheSectionHasAnUnknownKey() throws Exception {
    String text = testbed().replace("  address-bits = 48\n", "  address-bits = 48, colour = red\n");
    String m = problems(text);
    assertEquals("bad.conf:" + lineOf(text, "colour") + ": global-memory.colour: unknown key;"
        + " allowed here: local-subspace, pms2-base, address-bits, compute-hosts, management-host,"
        + " control-page", m);
  }

  @Test
  void shouldListTheEndpointsWhenAComputeHostIdIsUnknown() throws Exception {
    String text = testbed().replace("compute-hosts = [ch1, ch2]", "compute-hosts = [ch1, ch3]");
    assertEquals("bad.conf:" + lineOf(text, "compute-hosts") + ": global-memory.compute-hosts[1]:"
        + " 'ch3' names no endpoint (endpoints: mmh, bmh, nic, ch1, ch2)", problems(text));
  }

  @Test
  void shouldRejectHostsThatAreSwitchesNonRootsOrRepeated() throws Exception {
    String m = problems(testbed().replace("compute-hosts = [ch1, ch2]",
        "compute-hosts = [ch1, tor, nic, ch1]"));
    assertTrue(m.contains("global-memory.compute-hosts[1]: 'tor' is a switch"), m);
    assertTrue(m.contains("global-memory.compute-hosts[2]: 'nic' is not a root (root = true)"), m);
    assertTrue(m.contains("global-memory.compute-hosts[3]: 'ch1' is listed twice"), m);
  }

  @Test
  void shouldGiveTheLayoutsNumbersAtTheSectionsLineWhenTheyDoNotFit() throws Exception {
    String text = testbed().replace("pms2-base = 1TiB", "pms2-base = 64GiB");
    assertEquals("bad.conf:" + lineOf(text, SECTION) + ": global-memory: hosts=2 x"
        + " local-subspace=32GiB needs PMS1 of 96GiB (with the MH's own 32GiB) but"
        + " pms2-base=64GiB; at most 1 host fits", problems(text));

    String narrow = testbed().replace("address-bits = 48", "address-bits = 40");
    assertEquals("bad.conf:" + lineOf(narrow, SECTION) + ": global-memory: 2 x pms2-base=1TiB"
        + " = 2TiB exceeds the 40-bit physical address space (1TiB)", problems(narrow));
  }

  @Test
  void shouldNameTheValueWhenASizeIsNotOne() throws Exception {
    String text = testbed().replace("local-subspace = 32GiB", "local-subspace = 32Gb-ish");
    String m = problems(text);
    assertTrue(m.startsWith("bad.conf:" + lineOf(text, "32Gb-ish") + ": global-memory.local-subspace:"
        + " '32Gb-ish' has unknown unit"), m);
  }

  @Test
  void shouldPointAtTheNtbPortWhenItsVirtualBarDoesNotShiftByL() throws Exception {
    // CH2's secondary NTB translating PMS2's view to 0 instead of 1TiB: CH address != MH + L
    String line = "virtual-bars = [ { base = \"0x108_0000_0000\", size = \"1TiB\", translate-to = \"1TiB\" } ] }";
    String text = testbed();
    int second = text.indexOf(line, text.indexOf(line) + 1);
    String bad = text.substring(0, second) + line.replace("\"1TiB\" }", "\"0x0\" }")
        + text.substring(second + line.length());
    String m = problems(bad);
    assertTrue(m.startsWith("bad.conf:" + lineOf(bad, "\"0x108_0000_0000\", size = \"1TiB\", translate-to = \"0x0\"")
        + ": rack.switches[2].ports[2].virtual-bars: ntb port nt-sec.ch2 is linked to compute host"
        + " ch2 (CH2 of global-memory, line " + lineOf(bad, SECTION) + ") as its secondary NTB,"
        + " but no virtual-bar maps the MH's PMS2 at CH address = MH address + 32GiB: expected"
        + " one inside [1TiB + 32GiB, 2TiB + 32GiB) covering [1TiB + 64GiB, 1TiB + 128GiB),"
        + " e.g. [1TiB + 32GiB, 2TiB + 32GiB) -> 0x100_0000_0000"), m);
    assertEquals(1, m.lines().count(), m);
  }

  @Test
  void shouldPointAtTheNtbPortWhenTheHostsAreListedInTheWrongOrder() throws Exception {
    String text = testbed().replace("compute-hosts = [ch1, ch2]", "compute-hosts = [ch2, ch1]");
    String m = problems(text);
    assertTrue(m.contains(": rack.switches[1].ports[1].link-bars: ntb port nt-pri.ch1 is linked to"
        + " compute host ch1 (CH2 of global-memory, line " + lineOf(text, SECTION) + ") but no"
        + " link-bar maps CH2's PMS1 range [64GiB, 96GiB) -> 0x0 (primary) or its PMS2 range"
        + " [1TiB + 64GiB, 1TiB + 96GiB) -> 0x0 (secondary)"), m);
  }

  @Test
  void shouldRejectAComputeHostsBarWhenOutsideItsLocalSubspace() throws Exception {
    String text = testbed().replace(
        "{ id = ch1, node = node-ch1, root = true, bars = [ { base = \"0x0\", size = \"8GiB\" } ] }",
        "{ id = ch1, node = node-ch1, root = true, bars = [ { base = \"0x0\", size = \"40GiB\" } ] }");
    assertEquals("bad.conf:" + lineOf(text, "size = \"40GiB\"") + ": rack.endpoints[3].bars[0].base:"
        + " BAR0 [0x0..0x9FFFFFFFF] of compute host ch1 (CH1) is outside its local subspace"
        + " [0, 32GiB) of global-memory (line " + lineOf(text, SECTION) + ")", problems(text));
  }

  @Test
  void shouldSayWhichNtbIsMissingWhenAHostHasOnlyOne() throws Exception {
    // demo.conf's single-plane layout: one NTB per CH, so no secondary plane
    String text = demo() + "\nglobal-memory {\n  local-subspace = 4GiB, pms2-base = 16GiB\n"
        + "  compute-hosts = [ch1, ch2]\n}\n";
    String m = problems(text);
    int line = lineOf(text, "compute-hosts");
    assertEquals("bad.conf:" + line + ": global-memory.compute-hosts: compute host ch1 (CH1) has no"
        + " secondary NTB port: no ntb port linked to its domain has the link-bar"
        + " [20GiB, 24GiB) -> 0x0\n"
        + "bad.conf:" + line + ": global-memory.compute-hosts: compute host ch2 (CH2) has no"
        + " secondary NTB port: no ntb port linked to its domain has the link-bar"
        + " [24GiB, 28GiB) -> 0x0", m.replace(System.lineSeparator(), "\n"));
  }

  @Test
  void shouldRejectTheSectionWhenWrittenInsideRack() throws Exception {
    String text = testbed().replace("  name = ladon-testbed\n",
        "  name = ladon-testbed\n  global-memory { compute-hosts = [ch1, ch2] }\n");
    String m = problems(text);
    assertTrue(m.contains("bad.conf:" + lineOf(text, "  global-memory {")
        + ": rack.global-memory: unknown key"), m);
  }

  @Test
  void shouldNameBothTopLevelKeysWhenAnotherOneIsThere() throws Exception {
    String m = problems(testbed() + "\nglobal-memroy { }\n");
    assertTrue(m.contains(": global-memroy: unknown key; allowed at top level: rack, global-memory"), m);
  }

  // ---- management-host and control-page: who runs the data-plane fail-over, and where its words are

  @Test
  void shouldNameTheMmhAndTheControlPageWhenTheTestbedIsLoaded() throws Exception {
    GlobalMemorySpec spec = TopologyLoader.load("ladon-testbed").globalMemorySpec();
    assertEquals("mmh", spec.managementHost());
    assertEquals(0x1_0000, spec.controlPage());
    assertEquals(0x1_0000, spec.ladonAddresses().mhPage(Plane.PRIMARY));
  }

  @Test
  void shouldRunNoHostSoftwareAndUseTheDefaultPageWhenBothKeysAreAbsent() throws Exception {
    GlobalMemorySpec spec = TopologyLoader.load(write(testbed()
        .replace("  management-host = mmh\n", "")
        .replace("  control-page = \"0x1_0000\"\n", ""))).globalMemorySpec();
    assertNull(spec.managementHost());
    assertEquals(GlobalMemorySpec.DEFAULT_CONTROL_PAGE, spec.controlPage());
  }

  @Test
  void shouldKeepAnotherControlPageWhenGivenAndWrittenBack() throws Exception {
    // the page moves, and with it the hardware that reaches it: the overlay BARs and the MH's PMS2 copy
    Topology t = TopologyLoader.load(write(testbed()
        .replace("control-page = \"0x1_0000\"", "control-page = \"0x2_0000\"")
        .replace("translate-to = \"0x1_0000\"", "translate-to = \"0x2_0000\"")
        .replace("0x1F8_0001_0000", "0x1F8_0002_0000")));
    assertEquals(0x2_0000, t.globalMemorySpec().controlPage());
    assertEquals(0x2_0000, t.globalMemorySpec().ladonAddresses().mhPage(Plane.PRIMARY));

    String text = TopologyWriter.write(t);

    assertTrue(text.contains("  control-page = \"0x2_0000\"\n"), text);
    assertEquals(t, TopologyLoader.parse(text, t.source()));
  }

  @Test
  void shouldRefuseTheBmhAsManagementHostWhenItsVirtualSwitchReachesNoPlane() throws Exception {
    // VS2 holds only the BMH until a take-over: its fail-over software would see no plane at all
    String text = testbed().replace("management-host = mmh", "management-host = bmh")
        .replace("control-plane { master = mmh, backup = bmh }", "");
    int bmh = lineOf(text, "{ id = bmh");
    assertEquals("bad.conf:" + bmh + ": rack.endpoints[1]: the management host bmh has no port toward its"
        + " primary plane (PMS1), whose AER data-plane fail-over needs: no downstream port of tor (virtual switch"
        + " 2) has a prefetchable window holding 0x8_0000_0000, PMS1's CH slots\n"
        + "bad.conf:" + bmh + ": rack.endpoints[1]: the management host bmh has no port toward its"
        + " secondary plane (PMS2), whose AER data-plane fail-over needs: no downstream port of tor (virtual"
        + " switch 2) has a prefetchable window holding 0x108_0000_0000, PMS2's CH slots",
        problems(text).replace(System.lineSeparator(), "\n"));
  }

  @Test
  void shouldRefuseTheManagementHostWhenNotARoot() throws Exception {
    String text = testbed().replace("management-host = mmh", "management-host = nic");
    assertEquals("bad.conf:" + lineOf(text, "management-host") + ": global-memory.management-host:"
        + " 'nic' is not a root (root = true); the MH is the root complex of the rack's domain",
        problems(text));
  }

  @Test
  void shouldRefuseTheManagementHostWhenItIsAComputeHost() throws Exception {
    String text = testbed().replace("management-host = mmh", "management-host = ch2");
    assertEquals("bad.conf:" + lineOf(text, "management-host") + ": global-memory.management-host:"
        + " 'ch2' is also a compute host", problems(text));
  }

  @Test
  void shouldListTheEndpointsWhenTheManagementHostIsUnknown() throws Exception {
    String text = testbed().replace("management-host = mmh", "management-host = mhh");
    assertEquals("bad.conf:" + lineOf(text, "management-host") + ": global-memory.management-host:"
        + " 'mhh' names no endpoint (endpoints: mmh, bmh, nic, ch1, ch2)", problems(text));

    String sw = testbed().replace("management-host = mmh", "management-host = tor");
    assertTrue(problems(sw).contains(": global-memory.management-host: 'tor' names no endpoint"));
  }

  @Test
  void shouldRefuseTheManagementHostWhenTheLayoutLeavesNoFailoverSlots() throws Exception {
    // P/L = 4: the MH's slot, two CHs and the multicast slot leave nothing for the PMS2 mailbox
    String text = testbed().replace("pms2-base = 1TiB", "pms2-base = 128GiB");
    String m = problems(text);
    assertTrue(m.startsWith("bad.conf:" + lineOf(text, "management-host") + ": global-memory.management-host:"
        + " data-plane fail-over cannot run on this layout: hosts=2: "), m);
    assertTrue(m.contains("with P/L=4 at most 1 compute hosts"), m);
    assertEquals(1, m.lines().count(), m);
  }

  @Test
  void shouldPointAtTheControlPageWhenItIsNotAPageOfTheLocalSubspace() throws Exception {
    String misaligned = testbed().replace("control-page = \"0x1_0000\"", "control-page = \"0x1_0004\"");
    assertEquals("bad.conf:" + lineOf(misaligned, "control-page") + ": global-memory.control-page:"
        + " control-page=0x1_0004 is not 4KiB-aligned", problems(misaligned));

    String outside = testbed().replace("control-page = \"0x1_0000\"", "control-page = \"32GiB\"");
    assertEquals("bad.conf:" + lineOf(outside, "control-page") + ": global-memory.control-page:"
        + " control-page=0x8_0000_0000: the page [32GiB, 32GiB + 4KiB) is not inside the local subspace"
        + " [0, 32GiB)", problems(outside));

    String notANumber = testbed().replace("control-page = \"0x1_0000\"", "control-page = somewhere");
    assertTrue(problems(notANumber).startsWith("bad.conf:" + lineOf(notANumber, "control-page")
        + ": global-memory.control-page: 'somewhere'"), problems(notANumber));
  }

  // ---- the control page is checked whenever the section has one

  @Test
  void shouldCheckTheControlPageWhenGivenWithoutAManagementHost() throws Exception {
    String noMh = testbed().replace("  management-host = mmh\n", "");
    String misaligned = noMh.replace("control-page = \"0x1_0000\"", "control-page = \"0x1_0800\"");
    assertEquals("bad.conf:" + lineOf(misaligned, "control-page") + ": global-memory.control-page:"
        + " control-page=0x1_0800 is not 4KiB-aligned", problems(misaligned));

    // inside L = 32GiB but above the CHs' 8GiB of memory
    String beyond = noMh.replace("control-page = \"0x1_0000\"", "control-page = \"9GiB\"");
    int line = lineOf(beyond, "control-page");
    assertEquals("bad.conf:" + line + ": global-memory.control-page: control-page=0x2_4000_0000: the page"
        + " [9GiB, 9GiB + 4KiB) is not in the memory of compute host ch1 (CH1) (its BARs: [0, 8GiB))\n"
        + "bad.conf:" + line + ": global-memory.control-page: control-page=0x2_4000_0000: the page"
        + " [9GiB, 9GiB + 4KiB) is not in the memory of compute host ch2 (CH2) (its BARs: [0, 8GiB))",
        problems(beyond).replace(System.lineSeparator(), "\n"));
  }

  @Test
  void shouldLeaveAnAbsentControlPageUncheckedWhenNoManagementHostUsesIt() throws Exception {
    // L = 64KiB has no room for the default page at 64KiB, but nothing asks for it
    Topology t = TopologyLoader.parse(testbed()
        .replace("  management-host = mmh\n", "").replace("  control-page = \"0x1_0000\"\n", ""), "ok.conf");
    assertNull(t.globalMemorySpec().managementHost());
    String small = testbed().replace("local-subspace = 32GiB", "local-subspace = 64KiB");
    assertTrue(problems(small).contains(": global-memory.control-page: control-page=0x1_0000: the page"
        + " [64KiB, 68KiB) is not inside the local subspace [0, 64KiB)"), problems(small));
  }

  @Test
  void shouldNameTheDefaultWhenTheManagementHostsPageIsNotInMemory() throws Exception {
    String text = testbed().replace("  control-page = \"0x1_0000\"\n", "")
        .replace("{ id = ch2, node = node-ch2, root = true, bars = [ { base = \"0x0\", size = \"8GiB\" } ] }",
            "{ id = ch2, node = node-ch2, root = true, bars = [ { base = \"1MiB\", size = \"7GiB\" } ] }");
    assertEquals("bad.conf:" + lineOf(text, SECTION) + ": global-memory.control-page: control-page=0x1_0000"
        + " (the default): the page [64KiB, 68KiB) is not in the memory of compute host ch2 (CH2) (its BARs:"
        + " [1MiB, 7GiB + 1MiB))", problems(text));
  }

  @Test
  void shouldPointAtTheWindowWhenADownstreamPortClaimsTheControlPage() throws Exception {
    // the NIC's window stretched down over the MH's control page
    String text = testbed().replace(
        "{ name = nic, number = 2, role = downstream, buses = [1, 2, 2], memory = [\"0xE0000000\", \"0xE01FFFFF\"] }",
        "{ name = nic, number = 2, role = downstream, buses = [1, 2, 2], memory = [\"0x0\", \"0xE01FFFFF\"] }");
    assertEquals("bad.conf:" + lineOf(text, "{ name = nic") + ": rack.switches[0].ports[2].memory: window"
        + " [0, 3GiB + 514MiB) of tor.nic overlaps the control page [64KiB, 68KiB) of the management host mmh"
        + " (global-memory, line " + lineOf(text, SECTION) + "): the fail-over words sent to the host would go"
        + " down this port instead", problems(text));
  }

  // ---- with a management host, the hardware data-plane fail-over needs

  @Test
  void shouldNameThePms2CopyWhenTheManagementHostHasNoBarForIt() throws Exception {
    String text = testbed().replaceFirst("\\s*\\{ base = \"0x1F8_0001_0000\", size = \"4KiB\" \\}", "");
    assertEquals("bad.conf:" + lineOf(text, "{ id = mmh") + ": rack.endpoints[0].bars: the management host mmh"
        + " has no BAR over [1TiB + 992GiB + 64KiB, 1TiB + 992GiB + 68KiB), its copy of the control page in the"
        + " top slot of PMS2 (2P - L + control-page), where a CH whose primary link is down reports: add"
        + " { base = \"0x1F8_0001_0000\", size = \"4KiB\" }", problems(text));
  }

  @Test
  void shouldPointAtTheNtbPortWhenItHasNoOverlayForTheMulticastPage() throws Exception {
    String text = testbed().replaceFirst(
        "\\{ base = \"96GiB\", size = \"4KiB\", translate-to = \"0x1_0000\" \\}", "");
    assertEquals("bad.conf:" + lineOf(text, "link-bars = [ { base = \"32GiB\"") + ":"
        + " rack.switches[1].ports[1].link-bars: ntb port nt-pri.ch1 is CH1's primary NTB but no link-bar maps"
        + " PMS1's multicast page [96GiB, 96GiB + 4KiB) to the control page 0x1_0000, so the MH's multicast"
        + " notification would not reach CH1: add { base = \"0x18_0000_0000\", size = \"4KiB\","
        + " translate-to = \"0x1_0000\" }", problems(text));

    // an overlay that lands beside the control page is no overlay
    String shifted = testbed().replaceFirst("translate-to = \"0x1_0000\"", "translate-to = \"0x2_0000\"");
    assertTrue(problems(shifted).contains(": rack.switches[1].ports[1].link-bars: ntb port nt-pri.ch1 is CH1's"
        + " primary NTB but no link-bar maps"), problems(shifted));
  }

  @Test
  void shouldNameThePageAndThePortsWhenAMulticastGroupIsMissingOrShort() throws Exception {
    // one CH: its overlay BAR overlaps no other port's, so the group can go alone (with two, the
    // overlays would overlap outside any multicast window, and that is reported first)
    String one = TopologyWriter.write(LadonRackGenerator.generate(GlobalMemoryLayout.paper(1), Placement.SINGLE_NODE));
    int group = one.lastIndexOf("      multicast = [\n"); // nt-sec's, the last switch with one
    String none = one.substring(0, group) + one.substring(one.indexOf("      ]\n", group) + 8);
    String m = problems(none);
    assertTrue(m.matches("bad\\.conf:\\d+: rack\\.switches\\[2\\]\\.multicast: switch nt-sec has no multicast group over"
        + " PMS2's multicast page \\[1TiB \\+ 64GiB, 1TiB \\+ 64GiB \\+ 4KiB\\): data-plane fail-over notifies every CH"
        + " with one write there, copied to each CH's secondary NTB port \\(ch1\\)"), m);

    // ch2 out of nt-pri's group and without its overlay (an overlay outside the group would overlap ch1's)
    String shortGroup = testbed().replace(
        "multicast = [ { group = 0, base = \"96GiB\", size = \"4KiB\", members = [ch1, ch2] } ]",
        "multicast = [ { group = 0, base = \"96GiB\", size = \"4KiB\", members = [ch1] } ]")
        .replaceFirst("(CH2 in PMS1\\n\\s*)\\{ base = \"96GiB\", size = \"4KiB\", translate-to = \"0x1_0000\" \\}", "$1");
    String lines = problems(shortGroup).replace(System.lineSeparator(), "\n");
    assertTrue(lines.startsWith("bad.conf:" + lineOf(shortGroup, "link-bars = [ { base = \"64GiB\"")
        + ": rack.switches[1].ports[2].link-bars: ntb port nt-pri.ch2 is CH2's primary NTB but no link-bar maps"), lines);
    assertTrue(lines.endsWith("\nbad.conf:" + lineOf(shortGroup, "members = [ch1] }") + ": rack.switches[1].multicast:"
        + " multicast group 0 of nt-pri over PMS1's multicast page [96GiB, 96GiB + 4KiB) lacks members ch2:"
        + " data-plane fail-over notifies every CH with one write there, copied to each CH's primary NTB port"
        + " (ch2)"), lines);
    assertEquals(2, lines.lines().count(), lines);
  }

  @Test
  void shouldSayWhichPlaneAComputeHostLacksWhenItHasOneRootPort() throws Exception {
    // ch1's sec root port moved off its PMS2 view
    String text = testbed().replaceFirst(Pattern.quote(
        "{ name = sec, number = 2, role = downstream, buses = [1, 3, 3], prefetchable = { base = \"0x108_"),
        "{ name = sec, number = 2, role = downstream, buses = [1, 3, 3], prefetchable = { base = \"0x109_");
    String m = problems(text);
    assertTrue(m.startsWith("bad.conf:" + lineOf(text, "{ id = ch1,") + ": rack.endpoints[3]: compute host"
        + " ch1 (CH1) has no port toward its secondary plane (PMS2), whose AER data-plane fail-over needs: no"
        + " downstream port of ch1-rp (virtual switch 1) has a prefetchable window holding 0x108_0000_0000,"
        + " its PMS2 view"), m);
  }

  @Test
  void shouldFollowTheWordsWhenAWindowLeavesTheMulticastPageOut() throws Exception {
    // tor.to-pri over the CH slots only: the MH's one write into PMS1's multicast page goes nowhere
    String text = testbed().replace(
        "{ name = to-pri, number = 3, role = downstream, buses = [1, 3, 4]\n"
            + "          prefetchable = { base = \"32GiB\", limit = \"0x18_000F_FFFF\" } }",
        "{ name = to-pri, number = 3, role = downstream, buses = [1, 3, 4]\n"
            + "          prefetchable = { base = \"32GiB\", limit = \"0x17_FFFF_FFFF\" } }");
    String m = problems(text);
    assertTrue(m.startsWith("bad.conf:" + lineOf(text, "management-host") + ": global-memory.management-host:"
        + " data-plane fail-over needs the MH's multicast notification through PMS1 (mmh writing"
        + " 0x18_0000_0800) to reach every CH at 0x1_0800, but it is "), m);
    assertTrue(m.endsWith(" and misses ch1, ch2 (rack route --from mmh --addr 0x18_0000_0800 shows the path)"), m);
    assertEquals(1, m.lines().count(), m);
  }

  @Test
  void shouldReportTheFirstHostAndCountTheRestWhenReportsThroughAPlaneGoAstray() throws Exception {
    // tor.to-sec widened over the top of PMS2: the mailbox copy there is routed back down, not up to the MH
    String text = testbed().replace(
        "prefetchable = { base = \"0x108_0000_0000\", limit = \"0x118_000F_FFFF\" } }\n",
        "prefetchable = { base = \"0x108_0000_0000\", limit = \"0x1FF_FFFF_FFFF\" } }\n");
    String m = problems(text);
    assertTrue(m.contains(": global-memory.management-host: data-plane fail-over needs CH1's failure report"
        + " through PMS2 (ch1 writing 0x200_0001_0004) to reach mmh at 0x1F8_0001_0004, but it is "), m);
    assertTrue(m.contains("; likewise for 1 more CH"), m);
    assertTrue(m.contains("needs CH1's acknowledgement through PMS2"), m);
  }

  // ---- helpers

  static String testbed() throws IOException {
    return bundled("ladon-testbed.conf");
  }

  private static String demo() throws IOException {
    return bundled("demo.conf");
  }

  private static String bundled(String file) throws IOException {
    try (InputStream in = GlobalMemorySectionTest.class.getClassLoader()
        .getResourceAsStream("topologies/" + file)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** The 1-based line of the first occurrence of {@code needle} outside # comments. */
  private static int lineOf(String text, String needle) {
    return lineOf(text, needle, 1);
  }

  private static int lineOf(String text, String needle, int occurrence) {
    List<String> lines = text.lines().toList();
    int seen = 0;
    for (int i = 0; i < lines.size(); i++) {
      if (!lines.get(i).trim().startsWith("#") && lines.get(i).contains(needle) && ++seen == occurrence) {
        return i + 1;
      }
    }
    throw new AssertionError(needle + " not in the text");
  }

  private Path write(String text) throws IOException {
    Path file = dir.resolve("bad.conf");
    Files.writeString(file, text);
    return file;
  }

  /** The problems of {@code text} written to bad.conf, loaded by its relative name. */
  private String problems(String text) throws IOException {
    Path file = write(text);
    TopologyException e = assertThrows(TopologyException.class,
        () -> TopologyLoader.parse(Files.readString(file), "bad.conf"));
    assertFalse(e.problems().isEmpty());
    return e.getMessage();
  }
}
