package io.rackfabric.cluster.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyException;
import io.rackfabric.cluster.topology.TopologyLoader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rack topology generate}, through the {@code rack} dispatcher. */
class TopologyGenerateCommandTest {

  private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
  private final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
  private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

  @Test
  void shouldPrintALoadableRackWhenHostsGiven() throws TopologyException {
    assertEquals(0, generate("ladon", "--hosts", "8"), err());

    Topology t = TopologyLoader.parse(out(), "stdout");
    assertEquals("ladon-8ch", t.name());
    assertEquals(8, t.computeHostIds().size());
    assertEquals(11, t.nodes().size());
    assertTrue(out().startsWith("# ladon-8ch.conf: a Ladon rack of 8 compute hosts"), out());
    assertTrue(out().contains("#   rack topology generate ladon --hosts 8\n"), out());
    assertEquals("", err());
  }

  @Test
  void shouldWriteTheFileWhenOutGiven(@TempDir Path dir) throws TopologyException {
    Path file = dir.resolve("rack.conf");

    assertEquals(0, generate("ladon", "--hosts", "3", "--placement", "single", "--local-subspace",
        "16GiB", "--pms2-base", "512GiB", "--out", file.toString()), err());

    Topology t = TopologyLoader.load(file);
    assertEquals(1, t.nodes().size());
    assertEquals(16L << 30, t.globalMemory().orElseThrow().localSubspace());
    assertEquals(512L << 30, t.globalMemory().orElseThrow().pms2Base());
    assertTrue(out().startsWith("wrote ladon-3ch (1 nodes, 6 switches, 6 endpoints, 14 links) to "),
        out());
  }

  @Test
  void shouldExitTwoNamingTheLimitWhenTwoHundredFiftySixHosts() {
    assertEquals(2, generate("ladon", "--hosts", "256", "--local-subspace", "4GiB", "--pms2-base", "2TiB"));
    assertTrue(err().startsWith("rack topology: hosts=256: "), err());
    assertTrue(err().contains("at most 255 compute hosts"), err());
    assertEquals("", out());
  }

  @Test
  void shouldWriteThreeNodesAndFourNtbChipsWhenFortyEightHosts(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("ladon-48.conf");
    assertEquals(0, generate("ladon", "--hosts", "48", "--pms2-base", "2TiB", "--placement", "three-node",
        "--out", file.toString()));

    Topology t = TopologyLoader.load(file);
    assertEquals(3, t.nodes().size());
    assertTrue(t.switchSpec("nt-sec-2").isPresent());
    assertEquals(48, t.computeHostIds().size());
  }

  @Test
  void shouldExitTwoWhenTheLayoutDoesNotFit() {
    assertEquals(2, generate("ladon", "--hosts", "32"));
    assertTrue(err().contains("at most 31 hosts fit"), err());
  }

  @Test
  void shouldExitTwoNamingTheValueWhenAFlagIsBad() {
    assertEquals(2, generate("ladon", "--hosts", "2", "--placement", "cloud"));
    assertEquals("rack topology: --placement=cloud not in {single, per-host, three-node}\n", err());
    errBytes.reset();
    assertEquals(2, generate("ladon", "--hosts", "2", "--local-subspace", "banana"));
    assertEquals("rack topology: --local-subspace: 'banana' is not an address or size\n", err());
    errBytes.reset();
    assertEquals(2, generate("ladon", "--hosts", "two"));
    assertEquals("rack topology: --hosts=two is not a whole number\n", err());
    errBytes.reset();
    assertEquals(2, generate("ladon", "--hosts", "0"));
    assertEquals("rack topology: hosts=0: at least one compute host is needed\n", err());
    errBytes.reset();
    assertEquals(2, generate("ladon"));
    assertEquals("rack topology: --hosts N is required (1..255 compute hosts)\n", err());
    errBytes.reset();
    assertEquals(2, generate("fattree", "--hosts", "2"));
    assertEquals("rack topology: generate: unknown rack kind 'fattree' (known: ladon, multirack)\n", err());
    errBytes.reset();
    assertEquals(2, generate("ladon", "--hosts", "2", "--base-port", "70000"));
    assertEquals("rack topology: --base-port=70000 not in [1,65535]\n", err());
    errBytes.reset();
    assertEquals(2, generate("ladon", "--hosts", "2", "--out", "/nonexistent-dir/x.conf"));
    assertTrue(err().startsWith("rack topology: --out /nonexistent-dir/x.conf: cannot write"), err());
  }

  @Test
  void shouldStillCheckFilesWhenGivenCheck() {
    assertEquals(0, Rack.run(List.of("topology", "check", "ladon-testbed"), out, err), err());
    assertEquals(2, Rack.run(List.of("topology", "frobnicate"), out, err));
    assertTrue(err().startsWith("rack topology: expected 'rack topology check FILE|NAME' or"), err());
  }

  @Test
  void shouldPrintUsageAndExitZeroWhenAskedForHelp() {
    assertEquals(0, generate("--help"));
    assertTrue(out().startsWith("usage: rack topology generate ladon --hosts N"), out());
  }

  private int generate(String... args) {
    List<String> all = new ArrayList<>(List.of("topology", "generate"));
    all.addAll(List.of(args));
    return Rack.run(all, out, err);
  }

  private String out() {
    return outBytes.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return errBytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void shouldWriteJoinedRacksWhenMultirack(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("mr.conf");
    assertEquals(0, generate("multirack", "--racks", "3", "--hosts-per-rack", "4", "--out", file.toString()));

    Topology t = TopologyLoader.load(file);
    assertTrue(t.endpoint("r3-ch4").isPresent());
    assertEquals(1 + 3, t.switchSpec("spine").orElseThrow().ports().size());
    assertTrue(out().startsWith("wrote multirack-3x4 ("), out());
  }

  @Test
  void shouldExitTwoNamingTheValueWhenMultirackArgumentsAreBad() {
    assertEquals(2, generate("multirack", "--racks", "32"));
    assertTrue(err().startsWith("rack topology: racks=32 not in 1..31"), err());
    errBytes.reset();
    assertEquals(2, generate("multirack"));
    assertTrue(err().contains("--racks N is required"), err());
    errBytes.reset();
    assertEquals(2, generate("multirack", "--racks", "2", "--placement", "single"));
    assertTrue(err().contains("--placement is for 'generate ladon'"), err());
    errBytes.reset();
    assertEquals(2, generate("ladon", "--hosts", "2", "--racks", "2"));
    assertTrue(err().contains("--racks and --hosts-per-rack are for 'generate multirack'"), err());
  }
}
