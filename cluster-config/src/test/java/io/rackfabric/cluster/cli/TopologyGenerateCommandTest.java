package io.rackfabric.cluster.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyException;
import io.rackfabric.cluster.topology.TopologyLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rack topology generate}, through the {@code rack} dispatcher. */
class TopologyGenerateCommandTest {

  private final RackRun rack = new RackRun();

  @Test
  void shouldPrintALoadableRackWhenHostsGiven() throws TopologyException {
    assertEquals(0, generate("ladon", "--hosts", "8"), rack.err());

    Topology t = TopologyLoader.parse(rack.out(), "stdout");
    assertEquals("ladon-8ch", t.name());
    assertEquals(8, t.computeHostIds().size());
    assertEquals(11, t.nodes().size());
    assertTrue(rack.out().startsWith("# ladon-8ch.conf: a Ladon rack of 8 compute hosts"), rack.out());
    assertTrue(rack.out().contains("#   rack topology generate ladon --hosts 8\n"), rack.out());
    assertEquals("", rack.err());
  }

  @Test
  void shouldWriteTheFileWhenOutGiven(@TempDir Path dir) throws TopologyException {
    Path file = dir.resolve("rack.conf");

    assertEquals(0, generate("ladon", "--hosts", "3", "--placement", "single", "--local-subspace",
        "16GiB", "--pms2-base", "512GiB", "--out", file.toString()), rack.err());

    Topology t = TopologyLoader.load(file);
    assertEquals(1, t.nodes().size());
    assertEquals(16L << 30, t.globalMemory().orElseThrow().localSubspace());
    assertEquals(512L << 30, t.globalMemory().orElseThrow().pms2Base());
    assertTrue(rack.out().startsWith("wrote ladon-3ch (1 nodes, 6 switches, 6 endpoints, 14 links) to "),
        rack.out());
  }

  @Test
  void shouldExitTwoNamingTheLimitWhenTwoHundredFiftySixHosts() {
    assertEquals(2, generate("ladon", "--hosts", "256", "--local-subspace", "4GiB", "--pms2-base", "2TiB"));
    assertTrue(rack.err().startsWith("rack topology generate: hosts=256: "), rack.err());
    assertTrue(rack.err().contains("at most 255 compute hosts"), rack.err());
    assertEquals("", rack.out());
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
    assertTrue(rack.err().contains("at most 31 hosts fit"), rack.err());
  }

  @Test
  void shouldExitTwoNamingTheValueWhenAFlagIsBad() {
    assertEquals(2, generate("ladon", "--hosts", "2", "--placement", "cloud"));
    assertEquals("rack topology generate: --placement=cloud not in {single, per-host, three-node}\n", rack.err());
    rack.resetErr();
    assertEquals(2, generate("ladon", "--hosts", "2", "--local-subspace", "banana"));
    assertTrue(rack.err().startsWith("rack topology generate: Invalid value for option '--local-subspace': 'banana'"
        + " is not an address or size"), rack.err());
    rack.resetErr();
    assertEquals(2, generate("ladon", "--hosts", "two"));
    assertTrue(rack.err().startsWith("rack topology generate: Invalid value for option '--hosts': 'two' is not an int"),
        rack.err());
    rack.resetErr();
    assertEquals(2, generate("ladon", "--hosts", "0"));
    assertEquals("rack topology generate: hosts=0: at least one compute host is needed\n", rack.err());
    rack.resetErr();
    assertEquals(2, generate("ladon"));
    assertEquals("rack topology generate: --hosts N is required (1..255 compute hosts)\n", rack.err());
    rack.resetErr();
    assertEquals(2, generate("fattree", "--hosts", "2"));
    assertEquals("rack topology generate: unknown rack kind 'fattree' (known: ladon, multirack)\n", rack.err());
    rack.resetErr();
    assertEquals(2, generate("ladon", "--hosts", "2", "--base-port", "70000"));
    assertEquals("rack topology generate: --base-port=70000 not in [1,65535]\n", rack.err());
    rack.resetErr();
    assertEquals(2, generate("ladon", "--hosts", "2", "--out", "/nonexistent-dir/x.conf"));
    assertTrue(rack.err().startsWith("rack topology generate: --out /nonexistent-dir/x.conf: cannot write"), rack.err());
  }

  @Test
  void shouldStillCheckFilesWhenGivenCheck() {
    assertEquals(0, rack.run(List.of("topology", "check", "ladon-testbed")), rack.err());
    assertEquals(2, rack.run(List.of("topology", "frobnicate")));
    assertTrue(rack.err().startsWith("rack topology: Unmatched argument at index 1: 'frobnicate'"), rack.err());
    rack.resetErr();
    assertEquals(2, rack.run(List.of("topology")));
    assertTrue(rack.err().startsWith("rack topology: expected 'rack topology check FILE|NAME' or"), rack.err());
  }

  @Test
  void shouldPrintUsageAndExitZeroWhenAskedForHelp() {
    assertEquals(0, generate("--help"));
    assertTrue(rack.out().startsWith("Usage: rack topology generate"), rack.out());
    for (String flag : List.of("--hosts", "--local-subspace", "--pms2-base", "--address-bits", "--placement",
        "--base-port", "--racks", "--hosts-per-rack", "--out")) {
      assertTrue(rack.out().contains(flag), flag + " in\n" + rack.out());
    }
  }

  private int generate(String... args) {
    List<String> all = new ArrayList<>(List.of("topology", "generate"));
    all.addAll(List.of(args));
    return rack.run(all);
  }

  @Test
  void shouldWriteJoinedRacksWhenMultirack(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("mr.conf");
    assertEquals(0, generate("multirack", "--racks", "3", "--hosts-per-rack", "4", "--out", file.toString()));

    Topology t = TopologyLoader.load(file);
    assertTrue(t.endpoint("r3-ch4").isPresent());
    assertEquals(1 + 3, t.switchSpec("spine").orElseThrow().ports().size());
    assertTrue(rack.out().startsWith("wrote multirack-3x4 ("), rack.out());
  }

  @Test
  void shouldExitTwoNamingTheValueWhenMultirackArgumentsAreBad() {
    assertEquals(2, generate("multirack", "--racks", "32"));
    assertTrue(rack.err().startsWith("rack topology generate: racks=32 not in 1..31"), rack.err());
    rack.resetErr();
    assertEquals(2, generate("multirack"));
    assertTrue(rack.err().contains("--racks N is required"), rack.err());
    rack.resetErr();
    assertEquals(2, generate("multirack", "--racks", "2", "--placement", "single"));
    assertTrue(rack.err().contains("--placement is for 'generate ladon'"), rack.err());
    rack.resetErr();
    assertEquals(2, generate("ladon", "--hosts", "2", "--racks", "2"));
    assertTrue(rack.err().contains("--racks and --hosts-per-rack are for 'generate multirack'"), rack.err());
  }
}
