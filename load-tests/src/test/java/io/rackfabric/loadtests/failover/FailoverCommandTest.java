package io.rackfabric.loadtests.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.cli.Rack;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rack failover --topology F} reads a file, and refuses one it cannot run in one JVM. */
class FailoverCommandTest {

  @TempDir Path dir;

  private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();

  private int rack(String... args) {
    return Rack.run(List.of(args), new PrintStream(outBytes, true, StandardCharsets.UTF_8),
        new PrintStream(errBytes, true, StandardCharsets.UTF_8));
  }

  private String out() {
    return outBytes.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return errBytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void shouldFailOverOnATopologyFileWhenItIsPlacedOnOneNode() {
    String file = dir.resolve("one.conf").toString();
    assertEquals(0, rack("topology", "generate", "ladon", "--hosts", "3", "--placement", "single", "--out", file), err());
    assertEquals(0, rack("failover", "link", "--topology", file), err());
    assertTrue(out().contains("rack failover link: ladon-3ch"), out());
    assertTrue(out().contains("CH3"), out());
  }

  @Test
  void shouldWriteTheSameFiguresTwiceWhenDatagramStreamsCrossTheFailOver() throws Exception {
    // The datagram services are guests of their endpoints: every send, resend and plane switch is
    // a model-time event, so how fast the machine runs them changes nothing.
    Path first = dir.resolve("first.json");
    Path second = dir.resolve("second.json");
    assertEquals(0, rack("failover", "link", "--hosts", "3", "--stream", "300", "--json", first.toString()), err());
    assertEquals(0, rack("failover", "link", "--hosts", "3", "--stream", "300", "--json", second.toString()), err());
    String figures = Files.readString(first);
    assertTrue(figures.contains("stream.ch1_to_ch2.delivered"), figures);
    assertTrue(figures.contains("tlps_lost_on_failed_link"), figures);
    assertEquals(figures, Files.readString(second));
  }

  @Test
  void shouldExitTwoNamingTheNodesWhenTheTopologyFileIsPlacedOnSeveral() {
    String file = dir.resolve("many.conf").toString();
    assertEquals(0, rack("topology", "generate", "ladon", "--hosts", "3", "--out", file), err());
    assertEquals(2, rack("failover", "link", "--topology", file));
    assertTrue(err().contains("places its components on"), err());
    assertTrue(err().contains("--placement single"), err());
  }

  @Test
  void shouldExitTwoWhenTheTopologyFileIsMissing() {
    assertEquals(2, rack("failover", "link", "--topology", dir.resolve("absent.conf").toString()));
    assertTrue(err().contains("absent.conf: file not found"), err());
  }

  @Test
  void shouldSuggestTheFlagAndNameTheKindsWhenTheyAreMistyped() {
    assertEquals(2, rack("failover", "link", "--hots", "3"));
    assertTrue(err().startsWith("rack failover: Unknown option: '--hots'"), err());
    assertTrue(err().contains("--hosts"), "a close match suggested: " + err());
    errBytes.reset();
    assertEquals(2, rack("failover", "cable", "--hosts", "3"));
    assertTrue(err().startsWith("rack failover: usage: rack failover link|uplink|switch"), err());
    assertTrue(err().endsWith("got [cable]\n"), err());
    errBytes.reset();
    assertEquals(2, rack("failover", "uplink", "--hosts", "3", "--host", "2"));
    assertEquals("rack failover: --host names the CH whose link fails: only for 'link'\n", err());
    errBytes.reset();
    assertEquals(2, rack("failover", "link", "--hosts", "3", "--host", "4"));
    assertEquals("rack failover: --host=4 not in [1,3]\n", err());
  }
}
