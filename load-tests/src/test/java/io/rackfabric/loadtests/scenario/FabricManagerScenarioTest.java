package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.FlowControlScenarioTest.fig;
import static io.rackfabric.loadtests.scenario.FlowControlScenarioTest.figures;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fabric manager over the fabric's actors ({@code fm-discover}, and a 16-port switch as AS-FM
 * Fig. 8 has it): its PI-4 reads travel as vendor-defined messages through ports, credits and
 * links in model time, take what the structure implies, find the topology file, and a link that
 * goes down is reported by PI-5 and read again in part; two runs give the same figures.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class FabricManagerScenarioTest {

  @TempDir Path dir;

  private Outcome run(Path file) throws Exception {
    return run(file, dir);
  }

  /** Runs the scenario in {@code file} under {@code dir} and asserts that every invariant held. */
  static Outcome run(Path file, Path dir) throws Exception {
    Scenario s = ScenarioLoader.load(file, ScenarioRunnerTest.KINDS, ScenarioOptions.NONE);
    Outcome o = new ScenarioRunner(ScenarioRunnerTest.KINDS).run(s, dir.resolve("run-" + System.nanoTime()),
        ScenarioRunnerTest.quiet());
    assertTrue(o.passed(), o.invariants().toString());
    return o;
  }

  private Path bundled() throws Exception {
    try (InputStream in = ScenarioLoader.class.getResourceAsStream("/scenarios/fm-discover.conf")) {
      Path file = dir.resolve("fm-discover.conf");
      Files.writeString(file, new String(in.readAllBytes(), StandardCharsets.UTF_8));
      return file;
    }
  }

  /** The fabric manager's and the election's model and count figures, sorted: what two runs must share. */
  static List<String> modelFigures(Outcome o) {
    List<String> out = new ArrayList<>();
    for (Figure f : o.figures()) {
      if ((f.name().startsWith("fm.") || f.name().startsWith("election."))
          && (f.clock().equals("model") || f.clock().equals("count"))) {
        out.add(f.name() + " = " + f.value());
      }
    }
    out.sort(null);
    return out;
  }

  @Test
  void shouldDiscoverTheDemoRackAndReadOnlyTheReportingDeviceAgainWhenItsLinkGoesDownAndUp() throws Exception {
    Path file = bundled();
    Outcome first = run(file);
    Map<String, Double> m = figures(first);
    // tor 1 + 1 + 4, leaf 1 + 1 + 2, mem, ch1 and ch2 1 + 1 + 1 each
    assertEquals(19, fig(m, "fm.structural_read_requests"));
    assertEquals(19 + 6 + 6 + 4, fig(m, "fm.read_requests"), "the discovery, then tor, tor and leaf again");
    assertEquals(fig(m, "fm.read_requests"), fig(m, "fm.completions"));
    assertEquals(0, fig(m, "fm.completions_with_error"));
    assertEquals(6, fig(m, "fm.devices"));
    assertEquals(5, fig(m, "fm.links"));
    assertEquals(0, fig(m, "fm.differences"));
    assertEquals(5, fig(m, "fm.writes"), "one event route per device but the fabric manager's own");
    // AS-FM 2.2: every link end trained to DL_Protected and waited for the fabric manager's write;
    // 10 ends after the discovery (mh's own locally), tor.down and leaf.up again after the link-up
    assertEquals(10 + 2, fig(m, "fm.activation_writes"));
    assertEquals(10, fig(m, "fm.activated_ends"));
    assertTrue(fig(m, "fm.activation.mem.waited_ns") >= fig(m, "fm.discovery_started_ns") + fig(m, "fm.discovery_ns"),
        "no end is active before the discovery that finds it ends");
    assertTrue(fig(m, "fm.activation.tor.down.waited_ns") > 0, "after the link-up at 200us: PI-5, re-read, write");
    assertEquals(10_000, fig(m, "fm.discovery_started_ns"));
    assertTrue(fig(m, "fm.discovery_ns") > 0);
    // down: leaf's event has no way back (its one link is the one down); up: tor and leaf report
    assertEquals(3, fig(m, "fm.pi5_events"));
    assertEquals(3, fig(m, "fm.rediscovery.0.port"));
    assertEquals(6, fig(m, "fm.rediscovery.0.read_requests"));
    assertTrue(fig(m, "fm.rediscovery.0.event_sent_ns") >= 100_000);
    assertTrue(fig(m, "fm.rediscovery.0.ns") > 0);
    assertEquals(2, fig(m, "fm.rediscovery.0.differences"), "tor.down and leaf.up no longer up");
    assertEquals(3, fig(m, "fm.rediscovery.1.port"));
    assertEquals(6, fig(m, "fm.rediscovery.1.read_requests"));
    assertTrue(fig(m, "fm.rediscovery.1.event_sent_ns") >= 200_000);
    assertEquals(0, fig(m, "fm.rediscovery.2.port"), "leaf.up");
    assertEquals(4, fig(m, "fm.rediscovery.2.read_requests"));
    assertEquals(200_000, fig(m, "fm.rediscovery.2.event_sent_ns"), "the link-up's model time, at both ends");
    assertEquals(0, fig(m, "fm.rediscovery.2.differences"), "the file again");
    // every request and completion crosses its links: mh-tor for tor, and one more for the rest
    assertTrue(fig(m, "fm.wire.pi4_read_request_sent") > fig(m, "fm.read_requests"));
    assertEquals(fig(m, "fm.wire.pi4_read_request_sent"), fig(m, "fm.wire.pi4_completion_with_data_sent"));
    paths(first, m);

    Outcome second = run(file);
    assertEquals(modelFigures(first), modelFigures(second));
  }

  /**
   * The paths (paths-distributed held, run() asserts it): 4 endpoints, 3 paths each, all written after
   * the discovery (mh's own locally); the cable's going down takes mem out of mh's, ch1's and ch2's
   * tables and only that (mem, cut off, cannot be written); its coming back puts it in again; leaf's
   * own rediscovery then changes no path and writes nothing.
   */
  private static void paths(Outcome o, Map<String, Double> m) {
    assertTrue(o.invariants().toString().contains("paths-distributed"), o.invariants().toString());
    assertEquals(12, fig(m, "fm.paths.distribution.computed"));
    assertEquals(4, fig(m, "fm.paths.distribution.endpoints_written"));
    assertEquals(3 * (3 + 1), fig(m, "fm.paths.distribution.writes"), "three entries and a header to mem, ch1, ch2");
    assertEquals(3 + 1, fig(m, "fm.paths.distribution.local_writes"), "mh's own table");
    assertEquals(fig(m, "fm.discovery_started_ns") + fig(m, "fm.discovery_ns"), fig(m, "fm.paths.distribution.at_ns"));
    assertTrue(fig(m, "fm.paths.distribution.held_ns") > 0);
    assertEquals(3 * 2, fig(m, "fm.paths.redistribution.0.computed"), "mem out of reach");
    assertEquals(3, fig(m, "fm.paths.redistribution.0.endpoints_written"));
    assertEquals(2 * 2, fig(m, "fm.paths.redistribution.0.writes"), "ch1's and ch2's mem entry cleared, a header each");
    assertEquals(12, fig(m, "fm.paths.redistribution.1.computed"));
    assertEquals(2 * 2, fig(m, "fm.paths.redistribution.1.writes"), "mem back in ch1's and ch2's; mem's own unchanged");
    assertEquals(0, fig(m, "fm.paths.redistribution.2.writes"), "leaf's re-read changes no path");
    assertEquals(0, fig(m, "fm.paths.malformed_writes"));
  }

  @Test
  void shouldMoveACh1PathsToTheSecondaryPlaneWhenItsPrimaryPlaneLinkGoesDown() throws Exception {
    Path file = dir.resolve("fm-ladon-plane.conf");
    Files.writeString(file, "scenario { name = fm-ladon-plane, topology = ladon-testbed, mode = single-jvm, seed = 1,"
        + " run { duration = 100us, wall-limit = 2m },"
        + " faults = [ { kind = link-down, target = ch1-rp.pri, at = 50us } ],"
        + " invariants = [ paths-distributed ], figures = [ fabric-manager ],"
        + " settings { rackfabric.fabric.management.enabled = on } }\n");
    Outcome o = run(file);
    Map<String, Double> m = figures(o);
    // mmh, bmh, nic, ch1, ch2: each reaches the four others, before and after (ch1 through nt-sec)
    assertEquals(5 * 4, fig(m, "fm.paths.distribution.computed"));
    assertEquals(5 * 4, fig(m, "fm.paths.redistribution.0.computed"), "ch1 still reached, over the other plane");
    // ch1's paths all crossed its primary plane's link, and every path to ch1 did: all five rewritten
    assertEquals(5, fig(m, "fm.paths.redistribution.0.endpoints_written"));
    assertEquals(4 + 1 + 4 * (1 + 1), fig(m, "fm.paths.redistribution.0.writes")
        + fig(m, "fm.paths.redistribution.0.local_writes"), "ch1's four entries and header, one entry and header each else");
    assertTrue(fig(m, "fm.paths.redistribution.0.held_ns") > 0);
    // paths-distributed held: no path crosses ch1-rp.pri, down at the end
    assertTrue(o.invariants().toString().contains("none across a link that is down"), o.invariants().toString());
  }

  @Test
  void shouldHoldDataWritesUntilTheFabricManagerActivatesThePortsAndLoseNone() throws Exception {
    Path file = dir.resolve("fm-traffic.conf");
    Files.writeString(file, "scenario { name = fm-traffic, topology = demo, mode = single-jvm, seed = 1,"
        + " run { duration = 60us, wall-limit = 2m },"
        + " traffic = [ { name = mh-to-mem, from = mh, to = mem, size = 64, interval = 1us } ],"
        + " invariants = [ fabric-discovered, no-duplicates, in-order ], figures = [ traffic, fabric-manager ],"
        + " settings { rackfabric.fabric.management.enabled = on, rackfabric.fabric.management.discover-at = 10us } }\n");
    Map<String, Double> m = figures(run(file));
    double activeAt = fig(m, "fm.discovery_started_ns") + fig(m, "fm.discovery_ns");
    assertTrue(fig(m, "sink.mem.delivered") > 0);
    assertEquals(0, fig(m, "sink.mem.lost"), "held, not dropped");
    assertTrue(fig(m, "sink.mem.latency_max") >= activeAt - 1_000,
        "the first writes, issued from 0, arrive only after the discovery (" + activeAt + " ns) and activation");
    assertTrue(fig(m, "sink.mem.latency_min") < 2_000, "once active, writes flow at the fabric's latency");
  }

  @Test
  void shouldTake19ReadsAnd19CompletionsWhenTheFabricManagerSitsOnPort1OfA16PortSwitch() throws Exception {
    StringBuilder ports = new StringBuilder();
    for (int i = 0; i < 16; i++) {
      ports.append(String.format("{ name = p%d, number = %d, role = %s, buses = [0, %d, %d] }%n",
          i, i, i == 1 ? "upstream" : "downstream", i + 1, i == 1 ? 17 : i + 1));
    }
    Files.writeString(dir.resolve("sw16.conf"), "rack { name = sw16, nodes = [ { name = n, host = \"127.0.0.1\","
        + " port = 25521 } ]\nswitches = [ { id = sw12, node = n, ports = [\n" + ports + "] } ]\n"
        + "endpoints = [ { id = fm, node = n, root = true, bars = [ { base = \"0x0\", size = \"1GiB\" } ] } ]\n"
        + "links = [ { a = fm, b = sw12.p1 } ] }\n");
    Path file = dir.resolve("fm-sw16.conf");
    Files.writeString(file, "scenario { name = fm-sw16, topology = \"sw16.conf\", mode = single-jvm,"
        + " run { duration = 50us, wall-limit = 2m }, invariants = [ fabric-discovered ], figures = [ fabric-manager ],"
        + " settings { rackfabric.fabric.management.enabled = on } }\n");
    Map<String, Double> m = figures(run(file));
    assertEquals(19, fig(m, "fm.read_requests"));
    assertEquals(19, fig(m, "fm.completions"));
    assertEquals(19, fig(m, "fm.structural_read_requests"));
    assertEquals(19, fig(m, "fm.wire.pi4_read_request_sent"), "one link: each request crosses it once");
    assertEquals(19, fig(m, "fm.wire.pi4_completion_with_data_sent"));
    assertEquals(19 * 16, fig(m, "fm.read_request_bytes"));
    assertTrue(fig(m, "fm.discovery_ns") > 0);
  }
}
