package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.FlowControlScenarioTest.fig;
import static io.rackfabric.loadtests.scenario.FlowControlScenarioTest.figures;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fm-ntb-windows}: the fabric manager writes every compute host's NTB windows of both planes
 * from the global memory layout, and the chips route by what it wrote; a window the file left that
 * the layout does not have is closed by its writes.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class FmNtbWindowsScenarioTest {

  /** A window into CH1's memory the layout has no place for, inside what tor routes down PMS1. */
  private static final String STALE = "{ base = \"0x18_0001_0000\", size = \"4KiB\", translate-to = \"0x2_0000\" }";

  @TempDir Path dir;

  @Test
  void shouldWriteBothPlanesWindowsOfEveryComputeHostAndCarryTheStreamsWhenTheFileAgrees() throws Exception {
    Map<String, Double> m = figures(BundledTwice.run("fm-ntb-windows", dir));
    String all = m.toString();
    // ladon-testbed: 2 CHs x 2 planes; each port 2 link-side windows (the CH's range, the multicast
    // page), 1 virtual-side, and the header
    assertEquals(4, fig(m, "fm.ntb_windows.ports_written"), all);
    assertEquals(4 * (2 + 1 + 1), fig(m, "fm.ntb_windows.writes"), all);
    assertEquals(0, fig(m, "fm.ntb_windows.not_written"), all);
    assertEquals(0, fig(m, "fm.ntb_windows.differences_from_file"), all);
    // written when the discovery ended, before the ports were activated
    assertEquals(fig(m, "fm.discovery_started_ns") + fig(m, "fm.discovery_ns"), fig(m, "fm.ntb_windows.last_sent_ns"));
    for (String sink : new String[] {"ch1", "ch2", "mmh"}) {
      assertEquals(0, fig(m, "sink." + sink + ".lost"), sink);
    }
  }

  @Test
  void shouldCloseAWindowTheFileLeftWhenTheFabricManagerWritesTheLayoutsWindows() throws Exception {
    String topology = bundled("/topologies/ladon-testbed.conf");
    String anchor = "{ base = \"96GiB\", size = \"4KiB\", translate-to = \"0x1_0000\" } ]  # multicast page -> CH1's control page";
    assertTrue(topology.contains(anchor), "ladon-testbed's nt-pri.ch1 as this test edits it");

    Files.writeString(dir.resolve("ladon-stale.conf"), topology.replace(anchor,
        "{ base = \"96GiB\", size = \"4KiB\", translate-to = \"0x1_0000\" }\n" + STALE + " ]"));

    Map<String, Double> kept = figures(run("off"));
    assertEquals(fig(kept, "traffic.into-stale.sent"), fig(kept, "sink.ch1.delivered"), "the file's window carries them");

    Map<String, Double> closed = figures(run("on"));
    String all = closed.toString();
    assertEquals(1, fig(closed, "fm.ntb_windows.differences_from_file"), all);
    assertEquals(4, fig(closed, "fm.ntb_windows.ports_written"), all);
    assertEquals(0, fig(closed, "sink.ch1.delivered"), "nt-pri.ch1 no longer claims the stale window: " + all);
    assertEquals(fig(kept, "traffic.into-stale.sent"), fig(closed, "traffic.into-stale.sent"));
  }

  private Outcome run(String write) throws Exception {
    String scenario = """
        scenario {
          name = fm-ntb-windows-stale-%s
          topology = ladon-stale.conf
          mode = single-jvm
          seed = 1
          run { duration = 40us, wall-limit = 2m }
          traffic = [ { name = into-stale, from = mmh, to = "0x18_0001_0100", size = 64, interval = 500ns, start = 25us } ]
          invariants = [ fabric-discovered ]
          figures = [ traffic, fabric-manager ]
          settings {
            rackfabric.fabric.management.enabled = on
            rackfabric.fabric.management.discover-at = 10us
            rackfabric.fabric.management.write-ntb-windows = %s
          }
        }
        """.formatted(write, write);
    Path file = dir.resolve("stale-" + write + ".conf");
    Files.writeString(file, scenario);
    return FabricManagerScenarioTest.run(file, dir);
  }

  private static String bundled(String resource) throws Exception {
    try (InputStream in = ScenarioLoader.class.getResourceAsStream(resource)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
