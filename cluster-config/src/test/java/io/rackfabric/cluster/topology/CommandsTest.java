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
    assertTrue(err().startsWith("rack topology check: Unknown option: '--verbose'"), err());
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

  private int check(String... args) {
    List<String> all = new java.util.ArrayList<>(List.of("topology", "check"));
    all.addAll(List.of(args));
    return io.rackfabric.cluster.cli.Rack.run(all, out, err);
  }

  private String out() {
    return outBytes.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return errBytes.toString(StandardCharsets.UTF_8);
  }
}
