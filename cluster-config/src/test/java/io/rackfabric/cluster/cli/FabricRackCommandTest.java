package io.rackfabric.cluster.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rack fabric discover}, through the {@code rack} dispatcher. */
class FabricRackCommandTest {

  private final RackRun rack = new RackRun();

  @Test
  void shouldPrintPacketsDevicesAndNoDifferenceWhenLadonTestbedIsDiscovered() {
    assertEquals(0, rack.run("fabric", "discover", "--topology", "ladon-testbed"), rack.err());
    String o = rack.out();
    assertTrue(o.startsWith("fabric discovery of ladon-testbed from mmh (structural:"), o);
    assertTrue(o.contains("found 10 devices, 11 links; the topology has 10 devices, 11 links"), o);
    assertTrue(o.contains("differences from the topology file: none"), o);
    assertTrue(o.contains("PI-4 read request"), o);
    // the windows the fabric manager writes: each CH's port of both planes, as the file has them
    assertTrue(o.contains("NTB windows the fabric manager writes (write-ntb-windows): 4 ports, 0 differ from the file"), o);
    assertTrue(o.contains("  nt-sec.ch2 link [[0x11000000000, 0x117FFFFFFFF] -> 0x0, "), o);
  }

  @Test
  void shouldGiveTheSameCountsAsTextWhenAskedForJson() throws Exception {
    assertEquals(0, rack.run("fabric", "discover", "--topology", "ladon-testbed", "--from", "ch1", "--json"), rack.err());
    JsonNode doc = new ObjectMapper().readTree(rack.out());
    assertEquals("ch1", doc.get("from").asText());
    assertEquals(10, doc.get("devices").size());
    assertEquals(11, doc.get("links").size());
    long requests = doc.get("packets").get("PI4_READ_REQUEST").get("count").asLong();
    assertEquals(requests, doc.get("packets").get("PI4_COMPLETION_WITH_DATA").get("count").asLong());
    assertTrue(requests > 0);
    assertEquals(0, doc.get("differences").size());
    assertEquals(4, doc.get("ntbWindows").get("ports").size());
    assertEquals(0, doc.get("ntbWindows").get("differences").size());
  }

  @Test
  void shouldPrintEveryPacketInOrderWhenTraced(@TempDir Path dir) throws Exception {
    // one root on port 1 of a 16-port switch with nothing else wired: AS-FM Fig. 9's 19 reads
    StringBuilder ports = new StringBuilder();
    for (int i = 0; i < 16; i++) {
      ports.append(String.format("{ name = p%d, number = %d, role = %s, buses = [0, %d, %d] }%n",
          i, i, i == 1 ? "upstream" : "downstream", i + 1, i == 1 ? 17 : i + 1));
    }
    Path file = dir.resolve("sw16.conf");
    Files.writeString(file, "rack { name = sw16, nodes = [ { name = n, host = \"127.0.0.1\", port = 25521 } ]\n"
        + "switches = [ { id = sw12, node = n, ports = [\n" + ports + "] } ]\n"
        + "endpoints = [ { id = fm, node = n, root = true, bars = [ { base = \"0x0\", size = \"1GiB\" } ] } ]\n"
        + "links = [ { a = fm, b = sw12.p1 } ] }\n");
    assertEquals(0, rack.run("fabric", "discover", "--topology", file.toString(), "--trace"), rack.err());
    String o = rack.out();
    assertTrue(o.startsWith("-> [0]          txn 0     read aperture 0 offset 100h, 6 registers (16 bytes):"
        + " general information\n"), o);
    assertTrue(o.contains(" 16 ports, 4 turn bits, max packet size 256, port number 1 (36 bytes)\n"), o);
    assertTrue(o.contains("-> [0]          txn 2     read aperture 0 offset 138h, 8 registers (16 bytes): pointer block 2\n"),
        o);
    assertTrue(o.contains("<- [0]          txn 2     pointers 11000h AP 0, 11200h AP 0,"), o);
    assertTrue(o.contains("-> [0]          txn 18    read aperture 0 offset 11E00h, 6 registers (16 bytes):"
        + " port 15 information\n"), o);
    assertTrue(o.contains("<- [0]          txn 3     DOWNSTREAM, virtual switch 1, width x0, speed gen0,"
        + " link state DL_INACTIVE, peer link state DL_INACTIVE (36 bytes)\n"), o);
    assertTrue(o.contains("<- [0]          txn 4     UPSTREAM, virtual switch 1, width x4, speed gen3,"
        + " link state DL_ACTIVE, peer link state DL_ACTIVE (36 bytes)\n"), o);
    assertEquals(19, o.lines().filter(l -> l.startsWith("-> ")).count());
    assertEquals(19, o.lines().filter(l -> l.startsWith("<- ") && !l.contains(" error: ")).count());
    assertTrue(o.contains("sw12    SWITCH    16     1   [0]"), o);
  }

  @Test
  void shouldExitTwoNamingTheValueWhenAFlagIsBad() {
    assertEquals(2, rack.run("fabric", "discover", "--topology", "ladon-testbed", "--from", "tor"));
    assertTrue(rack.err().contains("--from: tor is not an endpoint of ladon-testbed"), rack.err());
    rack.resetErr();
    assertEquals(2, rack.run("fabric", "discover", "--topology", "ladon-testbed", "--window", "0"));
    assertTrue(rack.err().contains("--window=0 not in [1,65536]"), rack.err());
    rack.resetErr();
    assertEquals(2, rack.run("fabric", "discover", "--topology", "ladon-testbed", "--over-fabric"));
    assertTrue(rack.err().contains("--over-fabric: the scenario runner (module load-tests) is not on the class path"),
        rack.err());
    rack.resetErr();
    assertEquals(2, rack.run("fabric"));
    assertTrue(rack.err().contains("expected 'rack fabric discover --topology F'"), rack.err());
  }
}
