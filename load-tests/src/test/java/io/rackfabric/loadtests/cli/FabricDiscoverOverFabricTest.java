package io.rackfabric.loadtests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rackfabric.cluster.topology.Topology;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rack fabric discover --over-fabric}: the rack started in one JVM and discovered over its
 * emulated fabric, beside the structural walk. Every link has trained when the fabric manager
 * starts, so the walk over the fabric reads exactly what the structural one reads, and its model
 * time comes out of the run.
 */
class FabricDiscoverOverFabricTest {

  private final RackRun rack = new RackRun();

  @Test
  void shouldReadWhatTheStructuralWalkReadsInModelTimeWhenDiscoveredOverTheFabric(@TempDir Path dir)
      throws Exception {
    // a file whose name would end a quoted HOCON string and open a block: it stays a name
    Path file = dir.resolve("lab \"x\" } y.conf");
    try (InputStream in = Topology.class.getResourceAsStream("/topologies/ladon-testbed.conf")) {
      Files.write(file, in.readAllBytes());
    }
    assertEquals(0, rack.run("fabric", "discover", "--topology", file.toString(), "--from", "ch1", "--over-fabric",
        "--json"), rack.err());
    JsonNode doc = new ObjectMapper().readTree(rack.out());
    JsonNode over = doc.get("overFabric");
    assertTrue(over.get("discovered").asBoolean(), over.toString());
    long structural = doc.get("packets").get("PI4_READ_REQUEST").get("count").asLong();
    assertEquals(structural, over.get("readRequests").get("count").asLong(), "the same walk, from ch1");
    assertEquals(structural, over.get("completionsWithData").get("count").asLong());
    assertEquals(doc.get("devices").size(), over.get("devices").asInt());
    assertEquals(doc.get("links").size(), over.get("links").asInt());
    assertEquals(0, over.get("differences").size());
    assertTrue(over.get("discoveryNs").asLong() > 0, "model time out of the run");
    assertTrue(rack.err().contains("setting rackfabric.fabric.management.fabric-manager = ch1"), rack.err());
  }
}
