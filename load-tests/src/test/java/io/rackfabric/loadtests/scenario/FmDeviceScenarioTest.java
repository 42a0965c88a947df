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
 * {@code fm-device-removed}: a device removed and plugged back in under fabric management is
 * reported by its neighbor's PI-5 events, and only the neighbor (then the device found again) is
 * read; the device leaves and re-enters the database and the paths; two runs give the same figures.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class FmDeviceScenarioTest {

  @TempDir Path dir;

  private Path bundled() throws Exception {
    try (InputStream in = ScenarioLoader.class.getResourceAsStream("/scenarios/fm-device-removed.conf")) {
      Path file = dir.resolve("fm-device-removed.conf");
      Files.writeString(file, new String(in.readAllBytes(), StandardCharsets.UTF_8));
      return file;
    }
  }

  @Test
  void shouldRemoveAndFindAgainOnlyTheDeviceWhenItIsUnpluggedAndPluggedBackIn() throws Exception {
    Path file = bundled();
    Outcome first = FabricManagerScenarioTest.run(file, dir);
    Map<String, Double> m = figures(first);
    String all = FabricManagerScenarioTest.modelFigures(first).toString();
    double full = fig(m, "fm.structural_read_requests");
    assertEquals(19, full, all);
    // removed: tor reports its port 2 (ch2's own event has no way back), tor alone is re-read
    assertEquals(2, fig(m, "fm.rediscovery.0.port"), all);
    assertEquals(6, fig(m, "fm.rediscovery.0.read_requests"), "tor 1 + 1 + 4");
    assertEquals(1, fig(m, "fm.rediscovery.0.devices_removed"), "ch2, detached");
    assertEquals(0, fig(m, "fm.rediscovery.0.devices_added"));
    assertTrue(fig(m, "fm.rediscovery.0.differences") > 0, "ch2 missing from the file's devices");
    assertEquals(full, fig(m, "fm.rediscovery.0.full_discovery_read_requests"), "the run's own discovery");
    assertTrue(fig(m, "fm.rediscovery.0.ns") < fig(m, "fm.rediscovery.0.full_discovery_ns"));
    // back: tor's re-read walks on to ch2, read as a new device (1 + 1 + 1) and configured
    assertEquals(2, fig(m, "fm.rediscovery.1.port"));
    assertEquals(6 + 3, fig(m, "fm.rediscovery.1.read_requests"), "tor, then ch2 found through its port 2");
    assertEquals(1, fig(m, "fm.rediscovery.1.devices_added"));
    assertEquals(0, fig(m, "fm.rediscovery.1.differences"), "the file again");
    assertEquals(6, fig(m, "fm.devices"));
    assertEquals(5, fig(m, "fm.links"));
    assertEquals(5 + 1, fig(m, "fm.writes"), "an event route per device after the discovery, ch2's again");
    // paths: ch2 out of mh's, ch1's and mem's tables (a clear and a header each, mh's locally) ...
    assertEquals(3 * 2, fig(m, "fm.paths.redistribution.0.computed"));
    assertEquals(2 * 2, fig(m, "fm.paths.redistribution.0.writes"));
    assertEquals(2, fig(m, "fm.paths.redistribution.0.local_writes"));
    // ... and back: ch2's table whole (it was forgotten), the others their ch2 entry and a header
    assertEquals(12, fig(m, "fm.paths.redistribution.1.computed"));
    assertEquals(3 + 1 + 2 * 2, fig(m, "fm.paths.redistribution.1.writes"));
    assertEquals(2, fig(m, "fm.paths.redistribution.1.local_writes"));

    Outcome second = FabricManagerScenarioTest.run(file, dir);
    assertEquals(FabricManagerScenarioTest.modelFigures(first), FabricManagerScenarioTest.modelFigures(second));
  }
}
