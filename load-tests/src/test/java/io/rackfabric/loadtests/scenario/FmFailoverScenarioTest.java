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
 * The bundled {@code fm-failover}: the MMH, elected primary, dies at 50us; the BMH, secondary,
 * stops hearing its heartbeats, takes over, discovers the fabric itself and serves a link that
 * comes back afterwards; two runs give the same model and count figures.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class FmFailoverScenarioTest {

  @TempDir Path dir;

  @Test
  void shouldTakeOverFromADeadPrimaryAndServeALinkThatComesBack() throws Exception {
    Path file = dir.resolve("fm-failover.conf");
    try (InputStream in = ScenarioLoader.class.getResourceAsStream("/scenarios/fm-failover.conf")) {
      Files.writeString(file, new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
    Outcome first = FabricManagerScenarioTest.run(file, dir);
    Map<String, Double> m = figures(first);
    assertEquals(1, fig(m, "election.mmh.primary"));
    assertEquals(1, fig(m, "election.bmh.secondary"));
    assertEquals(1, fig(m, "fm.takeover.by_bmh"));
    assertEquals(50_000, fig(m, "fm.takeover.primary_died_ns"));
    assertTrue(fig(m, "election.bmh.heartbeats_received") > 0);
    assertTrue(fig(m, "fm.takeover.last_heartbeat_sent_ns") < 50_000, "nothing leaves a dead host");
    assertEquals(fig(m, "fm.takeover.last_heartbeat_at_ns") + 6_000, fig(m, "fm.takeover.at_ns"),
        "the watch timeout after the last heartbeat");
    assertTrue(fig(m, "fm.takeover.detection_ns") > 0 && fig(m, "fm.takeover.detection_ns") <= 6_000 + 2_000,
        "within a heartbeat interval and the watch timeout of the death");
    assertTrue(fig(m, "fm.takeover.serving_ns") > 0);
    // the new primary's figures: its discovery after the take-over, and the NIC's link coming back
    assertEquals(fig(m, "fm.takeover.at_ns"), fig(m, "fm.discovery_started_ns"));
    // the NIC was cut off when the BMH took over, so only tor can tell it of the link coming back;
    // re-reading tor leads on to the NIC, which is then configured as the discovery would have
    assertEquals(1, fig(m, "fm.pi5_events"), "tor reports the link back up to the new primary");
    assertEquals(2, fig(m, "fm.activation_writes"), "tor.nic and the NIC's port, activated by the new primary");
    assertEquals(9, fig(m, "fm.devices"), "the NIC found again; the dead MMH not");

    Outcome second = FabricManagerScenarioTest.run(file, dir);
    assertEquals(FabricManagerScenarioTest.modelFigures(first), FabricManagerScenarioTest.modelFigures(second));
  }
}
