package io.rackfabric.cluster.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommandsTest {

  @TempDir Path dir;

  private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
  private final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
  private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

  // ---- rack route

  @Test
  void shouldExitZeroAndPrintHopsWhenDelivered() {
    int code = route("--topology", "fig1", "--from", "rc", "--addr", "0xB0040");
    assertEquals(0, code, err());
    assertTrue(out().contains("sw1  up -> right"), out());
    assertTrue(out().contains("delivered: ep2 BAR1 [0xB0000..0xBFFFF] at 0xB0040"), out());
    assertEquals("", err());
  }

  @Test
  void shouldExitOneWhenTheRequestIsRefused() {
    int code = route("--topology=fig1", "--from=srv2", "--addr=0x20000", "--read");
    assertEquals(1, code, err());
    assertTrue(out().contains("Unsupported Request at sw2"), out());
  }

  @Test
  void shouldExitTwoWithTheKnownComponentsWhenTheComponentIsUnknown() {
    int code = route("--topology", "fig1", "--from", "ep9", "--addr", "0xB0040");
    assertEquals(2, code);
    assertEquals("rack route: --from: no component 'ep9' in fig1.conf (components: sw1, sw2, rc,"
        + " ep1, ep2, srv2)\n", err());
    assertEquals("", out());
  }

  @Test
  void shouldExitTwoWhenStartingFromASwitchOrAMissingPort() {
    assertEquals(2, route("--topology", "fig1", "--from", "sw1", "--addr", "0x0"));
    assertTrue(err().contains("'sw1' is a switch: start from an endpoint or from one of its ports, e.g. sw1.up"), err());
    errBytes.reset();
    assertEquals(2, route("--topology", "fig1", "--from", "sw1.nope", "--addr", "0x0"));
    assertTrue(err().contains("switch sw1 has no port 'nope' (ports: up, left, right)"), err());
  }

  @Test
  void shouldExitTwoWhenTheAddressIsOutside64Bits() {
    int code = route("--topology", "fig1", "--from", "rc", "--addr", "0x1_0000_0000_0000_0000");
    assertEquals(2, code);
    assertEquals("rack route: --addr: '0x1_0000_0000_0000_0000' is outside 64 bits\n", err());
  }

  @Test
  void shouldExitTwoWhenTheAddressIsNotANumber() {
    assertEquals(2, route("--topology", "fig1", "--from", "rc", "--addr", "banana"));
    assertTrue(err().contains("'banana' is not an address or size"), err());
  }

  @Test
  void shouldExitTwoWhenAFlagIsUnknown() {
    int code = route("--topology", "fig1", "--from", "rc", "--addr", "0x0", "--fast");
    assertEquals(2, code);
    assertTrue(err().startsWith(
        "rack route: unknown option '--fast' (options: --topology, --from, --addr, --read)\nusage:"), err());
  }

  @Test
  void shouldExitTwoWhenFlagsAreMissingOrRepeated() {
    assertEquals(2, route("--topology", "fig1", "--from", "rc"));
    assertTrue(err().startsWith("rack route: missing --addr\n"), err());
    errBytes.reset();
    assertEquals(2, route("--topology", "fig1", "--from", "rc", "--addr"));
    assertTrue(err().startsWith("rack route: --addr needs a value\n"), err());
    errBytes.reset();
    assertEquals(2, route("--topology", "fig1", "--from", "rc", "--from", "ep1", "--addr", "0x0"));
    assertTrue(err().startsWith("rack route: --from given twice\n"), err());
    errBytes.reset();
    assertEquals(2, route("fig1"));
    assertTrue(err().startsWith("rack route: unexpected argument 'fig1'\n"), err());
  }

  @Test
  void shouldExitTwoWithTheFileProblemsWhenTheTopologyIsBad() throws IOException {
    Path bad = dir.resolve("bad.conf");
    Files.write(bad, List.of("rack {", "  name = x", "  nodez = []", "}"));
    assertEquals(2, route("--topology", bad.toString(), "--from", "rc", "--addr", "0x0"));
    assertTrue(err().contains(bad + ":3: rack.nodez: unknown key (did you mean 'nodes'?)"), err());
    assertTrue(err().contains(bad + ":1: rack.nodes: missing (required)"), err());
  }

  @Test
  void shouldPrintUsageWhenAskedForHelp() {
    assertEquals(0, route("--help"));
    assertTrue(out().startsWith("usage: rack route"), out());
  }

  // ---- rack topology check

  @Test
  void shouldPrintTheSummaryAndExitZeroWhenTheTopologyIsValid() {
    assertEquals(0, check("demo"));
    String o = out();
    assertTrue(o.startsWith("demo (demo.conf): 3 nodes, 2 switches, 4 endpoints, 5 links\n"), o);
    assertTrue(o.contains("node-a  127.0.0.1:25521  seed  runs tor, mh"), o);
    assertTrue(o.contains("ntb1  ntb"), o);
    assertTrue(o.contains("tor.down     --  leaf.up  gen3 x4 20ns"), o);
    assertEquals("", err());
  }

  @Test
  void shouldPrintTheManagementHostAndControlPageWhenTheTopologyHasGlobalMemory() throws Exception {
    assertEquals(0, check("ladon-testbed"), err());
    assertTrue(out().contains("\n  management host mmh: runs the data-plane fail-over; control page 0x1_0000"
        + " (4KiB) in every host's memory, the MH's copy in PMS2 at 0x1F8_0001_0000\n"), out());

    outBytes.reset();
    Path file = dir.resolve("no-mh.conf");
    Files.writeString(file, TopologyWriter.write(TopologyLoader.load("ladon-testbed"))
        .replace("  management-host = \"mmh\"\n", ""));
    assertEquals(0, check(file.toString()), err());
    assertTrue(out().contains("\n  management host none: no host software runs; control page 0x1_0000 (4KiB)"
        + " unused\n"), out());
  }

  @Test
  void shouldLoadAFileWhenGivenItsPath() throws IOException {
    Path file = dir.resolve("fig1-copy.conf");
    try (var in = getClass().getClassLoader().getResourceAsStream("topologies/fig1.conf")) {
      Files.copy(in, file);
    }
    assertEquals(0, check(file.toString()));
    assertTrue(out().startsWith("fig1 (" + file + "): 1 node, 2 switches"), out());
  }

  @Test
  void shouldPrintEveryProblemAndExitTwoWhenTheTopologyIsBad() throws IOException {
    Path bad = dir.resolve("bad.conf");
    Files.write(bad, List.of(
        "rack {",
        "  name = x",
        "  nodes = [ { name = a, host = h, port = 1 } ]",
        "  endpoints = [ { id = e, node = b } ]",
        "}"));
    assertEquals(2, check(bad.toString()));
    assertEquals(bad + ":4: rack.endpoints[0].node: e is placed on node 'b', which rack.nodes does not"
        + " define (nodes: a)\n"
        + bad + ":4: rack.endpoints[0].id: endpoint e is attached to no link; add one to rack.links\n"
        + "2 problems\n", err());
    assertEquals("", out());
  }

  @Test
  void shouldExitTwoWhenTheFileIsMissing() {
    assertEquals(2, check(dir.resolve("none.conf").toString()));
    assertTrue(err().startsWith(dir.resolve("none.conf") + ": file not found\n"), err());
    errBytes.reset();
    assertEquals(2, check("fig7"));
    assertTrue(err().startsWith("fig7: no such file and no bundled topology of that name"), err());
  }

  @Test
  void shouldExitTwoWhenCheckArgumentsAreBad() {
    assertEquals(2, check());
    assertTrue(err().startsWith("rack topology check: missing FILE or NAME\n"), err());
    errBytes.reset();
    assertEquals(2, check("--verbose", "fig1"));
    assertTrue(err().startsWith("rack topology check: unknown option '--verbose'\n"), err());
    errBytes.reset();
    assertEquals(2, check("fig1", "demo"));
    assertTrue(err().startsWith("rack topology check: one FILE or NAME only"), err());
  }

  @Test
  void shouldPrintNoStackTraceWhenTheFileIsGarbage() throws IOException {
    Path junk = dir.resolve("junk.conf");
    Files.write(junk, new byte[] {0x7b, 0x7b, 0x5b, 0x00, (byte) 0xff, 0x3d, 0x3d, 0x7d});
    assertEquals(2, check(junk.toString()));
    assertFalse(err().contains("Exception"), err());
    assertFalse(err().contains("\tat "), err());
    assertTrue(err().startsWith(junk.toString()), err());
  }

  private int route(String... args) {
    return RouteCommand.run(args, out, err);
  }

  private int check(String... args) {
    return TopologyCheckCommand.run(args, out, err);
  }

  private String out() {
    return outBytes.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return errBytes.toString(StandardCharsets.UTF_8);
  }
}
