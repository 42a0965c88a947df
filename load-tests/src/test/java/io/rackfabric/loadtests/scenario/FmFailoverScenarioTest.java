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
 * stops hearing its heartbeats, takes over the topology database the MMH kept sending it (re-reading
 * only the MMH's neighbor), and serves a link that comes back afterwards; two runs give the same
 * model and count figures. The database it takes over is the one the controller's state holds
 * ({@code keep-fabric-database}, on by default), the copy over the fabric kept all the same; with
 * {@code keep-fabric-database = off} that copy is the one taken over. With both off the BMH
 * discovers the whole fabric instead (the fallback of a secondary without a usable copy), which
 * reads more and takes longer.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class FmFailoverScenarioTest {

  /** The fabric manager's database not kept in the controller's state (on by default in the Ladon rack). */
  private static final String NO_CONTROLLER_DATABASE = "rackfabric.host.controlplane.keep-fabric-database = off";

  @TempDir Path dir;

  @Test
  void shouldTakeOverFromADeadPrimaryAndServeALinkThatComesBack() throws Exception {
    Path file = scenario("fm-failover.conf", "");
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
    // the database: a full copy after the MMH's discovery, a delta after its re-read of tor at 30us
    assertEquals(1, fig(m, "election.mmh.database.full_copies_sent"));
    assertEquals(1, fig(m, "election.mmh.database.deltas_sent"), "tor re-read after the NIC's cable was pulled");
    assertEquals(fig(m, "election.mmh.database.messages_sent"), fig(m, "election.bmh.database.messages_received"));
    assertTrue(fig(m, "election.mmh.database.messages_sent") > 1, "a full copy does not fit one max payload");
    assertEquals(2, fig(m, "election.bmh.database.updates_applied"));
    assertEquals(0, fig(m, "election.bmh.database.gaps"));
    assertEquals(0, fig(m, "fm.wire.database_resync_sent"));
    assertTrue(fig(m, "fm.wire.database_update_sent") >= fig(m, "election.mmh.database.messages_sent"));
    // the take-over from the kept database: only the MMH's neighbor re-read, every event route re-programmed
    assertEquals(1, fig(m, "fm.takeover.from_database"));
    assertEquals(1, fig(m, "fm.takeover.from_controller"),
        "the database in the controller's state (keep-fabric-database, on by default) comes first");
    assertEquals(1, fig(m, "fm.takeover.rereads"), "the dead MMH's one neighbor");
    assertEquals(fig(m, "fm.takeover.event_route_writes") + 1, fig(m, "fm.writes"),
        "every device it held but its own at the take-over, then the NIC's once found again");
    assertTrue(fig(m, "fm.takeover.reads_after_takeover") < fig(m, "fm.structural_read_requests"),
        "fewer reads than a discovery of the whole fabric");
    // the new primary's figures: its take-over, and the NIC's link coming back
    assertEquals(fig(m, "fm.takeover.at_ns"), fig(m, "fm.discovery_started_ns"));
    // the NIC was cut off when the BMH took over, so only tor can tell it of the link coming back;
    // re-reading tor leads on to the NIC, which is then configured as the discovery would have
    assertEquals(1, fig(m, "fm.pi5_events"), "tor reports the link back up to the new primary");
    assertEquals(2, fig(m, "fm.activation_writes"), "tor.nic and the NIC's port, activated by the new primary");
    assertEquals(9, fig(m, "fm.devices"), "the NIC found again; the dead MMH not");

    Outcome second = FabricManagerScenarioTest.run(file, dir);
    assertEquals(FabricManagerScenarioTest.modelFigures(first), FabricManagerScenarioTest.modelFigures(second));

    // the fallback: no database kept, neither over the fabric nor in the controller's state, the
    // BMH discovers the whole fabric on taking over
    Map<String, Double> full = figures(FabricManagerScenarioTest.run(scenario("fm-failover-rediscover.conf",
        "rackfabric.fabric.management.election.keep-database = off\n    " + NO_CONTROLLER_DATABASE), dir));
    assertEquals(1, fig(full, "fm.takeover.by_bmh"));
    assertEquals(0, fig(full, "fm.takeover.from_database"));
    assertEquals(0, fig(full, "election.mmh.database.messages_sent"));
    assertEquals(fig(m, "fm.takeover.at_ns"), fig(full, "fm.takeover.at_ns"), "the same detection");
    assertTrue(fig(m, "fm.takeover.reads_after_takeover") < fig(full, "fm.takeover.reads_after_takeover"),
        fig(m, "fm.takeover.reads_after_takeover") + " re-reads against " + fig(full, "fm.takeover.reads_after_takeover"));
    assertTrue(fig(m, "fm.takeover.serving_ns") < fig(full, "fm.takeover.serving_ns"),
        fig(m, "fm.takeover.serving_ns") + " ns against " + fig(full, "fm.takeover.serving_ns"));
    // either way the rack goes on: the same devices and links at the end, the NIC found again
    for (String f : new String[] {"fm.devices", "fm.links", "fm.differences", "fm.pi5_events", "fm.activation_writes"}) {
      assertEquals(fig(full, f), fig(m, f), f);
    }
  }

  @Test
  void shouldAskForAFullCopyAndTakeItOverWhenTheFirstCopyWasLost() throws Exception {
    // the BMH's cable is pulled just after the MMH's discovery ends (21,142 ns): the full copy
    // and the first heartbeat are lost on the way; it is back at 22us, before the BMH, watching since its first heartbeat at 13us, could miss more than one.
    // Paths are not distributed here: their writes leave with the full copy and would move it past the cut
    // The copy over the fabric alone (not the controller's state): the take-over is from that copy
    Path file = scenario("fm-failover-lost-copy.conf",
        "rackfabric.fabric.management.distribute-paths = off\n    " + NO_CONTROLLER_DATABASE, """
            { kind = link-down, target = tor.bmh, at = 21150ns }
            { kind = link-up, target = tor.bmh, at = 22us }
        """);
    java.nio.file.Files.writeString(file, java.nio.file.Files.readString(file)
        .replace("fm-took-over, paths-distributed", "fm-took-over")); // no paths to check
    Map<String, Double> m = figures(FabricManagerScenarioTest.run(file, dir));
    assertTrue(fig(m, "election.bmh.database.gaps") >= 1, "the heartbeat after the cable came back counts messages it never had");
    assertEquals(1, fig(m, "election.bmh.database.resyncs_asked"), "asked once");
    assertEquals(1, fig(m, "election.mmh.database.resyncs_asked_of"));
    assertEquals(2, fig(m, "election.mmh.database.full_copies_sent"), "the first, lost, and the one asked for");
    assertTrue(fig(m, "fm.wire.database_resync_sent") >= 2, "the request crosses the BMH's link and tor's");
    assertEquals(1, fig(m, "fm.takeover.by_bmh"));
    assertEquals(1, fig(m, "fm.takeover.from_database"), "the copy was whole again when the MMH died");
    assertEquals(0, fig(m, "fm.takeover.from_controller"), "keep-fabric-database off: the copy over the fabric");
    assertEquals(1, fig(m, "fm.takeover.rereads"));
  }

  /** The bundled fm-failover as file {@code name}, with {@code setting} added to its settings. */
  private Path scenario(String name, String setting) throws Exception {
    return scenario(name, setting, "");
  }

  /** The same with {@code faults} (one a line) before its own faults. */
  private Path scenario(String name, String setting, String faults) throws Exception {
    Path file = dir.resolve(name);
    try (InputStream in = ScenarioLoader.class.getResourceAsStream("/scenarios/fm-failover.conf")) {
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      String changed = text.replace("  settings {\n", "  settings {\n    " + setting + "\n")
          .replace("  faults = [\n", "  faults = [\n" + faults);
      assertTrue(setting.isEmpty() && faults.isEmpty() || !changed.equals(text), "the scenario has its blocks");
      Files.writeString(file, changed);
    }
    return file;
  }
}
