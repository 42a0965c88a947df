package io.rackfabric.loadtests.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.cli.RackRun;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rack failover --topology F} reads a file, and refuses one it cannot run in one JVM. */
class FailoverCommandTest {

  private final RackRun rack = new RackRun();

  @TempDir Path dir;


  @Test
  void shouldFailOverOnATopologyFileWhenItIsPlacedOnOneNode() {
    String file = dir.resolve("one.conf").toString();
    assertEquals(0, rack.run("topology", "generate", "ladon", "--hosts", "3", "--placement", "single", "--out", file), rack.err());
    assertEquals(0, rack.run("failover", "link", "--topology", file), rack.err());
    assertTrue(rack.out().contains("rack failover link: ladon-3ch"), rack.out());
    assertTrue(rack.out().contains("CH3"), rack.out());
  }

  @Test
  void shouldWriteTheSameFiguresTwiceWhenDatagramStreamsCrossTheFailOver() throws Exception {
    // The datagram services are guests of their endpoints: every send, resend and plane switch is
    // a model-time event, so how fast the machine runs them changes nothing.
    Path first = dir.resolve("first.json");
    Path second = dir.resolve("second.json");
    assertEquals(0, rack.run("failover", "link", "--hosts", "3", "--stream", "300", "--json", first.toString()), rack.err());
    assertEquals(0, rack.run("failover", "link", "--hosts", "3", "--stream", "300", "--json", second.toString()), rack.err());
    String figures = Files.readString(first);
    assertTrue(figures.contains("stream.ch1_to_ch2.delivered"), figures);
    assertTrue(figures.contains("tlps_lost_on_failed_link"), figures);
    assertEquals(figures, Files.readString(second));
  }

  @Test
  void shouldExitTwoNamingTheNodesWhenTheTopologyFileIsPlacedOnSeveral() {
    String file = dir.resolve("many.conf").toString();
    assertEquals(0, rack.run("topology", "generate", "ladon", "--hosts", "3", "--out", file), rack.err());
    assertEquals(2, rack.run("failover", "link", "--topology", file));
    assertTrue(rack.err().contains("places its components on"), rack.err());
    assertTrue(rack.err().contains("--placement single"), rack.err());
  }

  @Test
  void shouldExitTwoWhenTheTopologyFileIsMissing() {
    assertEquals(2, rack.run("failover", "link", "--topology", dir.resolve("absent.conf").toString()));
    assertTrue(rack.err().contains("absent.conf: file not found"), rack.err());
  }

  @Test
  void shouldSuggestTheFlagAndNameTheKindsWhenTheyAreMistyped() {
    assertEquals(2, rack.run("failover", "link", "--hots", "3"));
    assertTrue(rack.err().startsWith("rack failover: Unknown option: '--hots'"), rack.err());
    assertTrue(rack.err().contains("--hosts"), "a close match suggested: " + rack.err());
    assertEquals(2, rack.run("failover", "cable", "--hosts", "3"));
    assertTrue(rack.err().startsWith("rack failover: usage: rack failover link|uplink|switch"), rack.err());
    assertTrue(rack.err().endsWith("got [cable]\n"), rack.err());
    assertEquals(2, rack.run("failover", "uplink", "--hosts", "3", "--host", "2"));
    assertEquals("rack failover: --host names the CH whose link fails: only for 'link'\n", rack.err());
    assertEquals(2, rack.run("failover", "link", "--hosts", "3", "--host", "4"));
    assertEquals("rack failover: --host=4 not in [1,3]\n", rack.err());
  }
}
