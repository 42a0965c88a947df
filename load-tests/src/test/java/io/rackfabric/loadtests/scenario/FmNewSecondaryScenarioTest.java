package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.FlowControlScenarioTest.fig;
import static io.rackfabric.loadtests.scenario.FlowControlScenarioTest.figures;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundled {@code fm-new-secondary}: three candidates (MMH, BMH, CH1). The MMH dies; the BMH
 * takes over and, once it serves, reads the candidate registers of the endpoints it reaches and
 * appoints CH1 its secondary; CH1 gets its heartbeats and a full copy of the database. The BMH dies
 * too; CH1 takes over with that copy (re-reading only the BMH's neighbor) and serves a link that
 * goes down and comes back.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class FmNewSecondaryScenarioTest {

  @TempDir Path dir;

  @Test
  void shouldAppointANewSecondaryAfterATakeOverWhoTakesOverInTurnWhenThePrimaryDiesAgain() throws Exception {
    Path file = dir.resolve("fm-new-secondary.conf");
    try (InputStream in = ScenarioLoader.class.getResourceAsStream("/scenarios/fm-new-secondary.conf")) {
      Files.write(file, in.readAllBytes());
    }
    Outcome o = FabricManagerScenarioTest.run(file, dir);
    assertTrue(o.passed(), o.invariants().toString()); // fm-took-over holds for both take-overs
    Map<String, Double> m = figures(o);
    // the election: the best two only; CH1 has no role
    assertEquals(1, fig(m, "election.mmh.primary"));
    assertEquals(1, fig(m, "election.bmh.secondary"));
    assertEquals(0, fig(m, "election.ch1.secondary"));
    assertEquals(1, fig(m, "election.agreed"));
    // the first take-over, then the appointment once the BMH serves
    assertEquals(1, fig(m, "fm.takeover.by_bmh"));
    assertEquals(40_000, fig(m, "fm.takeover.primary_died_ns"));
    double served = fig(m, "fm.takeover.at_ns") + fig(m, "fm.takeover.serving_ns");
    assertTrue(fig(m, "election.bmh.appointed_ns") > served, "candidate reads are made once it serves");
    assertEquals(1, fig(m, "election.bmh.appointed_ch1"));
    assertTrue(fig(m, "election.bmh.candidates_read") >= 2, "CH1 and CH2 at least (the NIC too)");
    assertTrue(fig(m, "election.ch1.appointed_ns") > fig(m, "election.bmh.appointed_ns"), "the write travels");
    assertTrue(fig(m, "election.ch1.heartbeats_received") > 0);
    assertEquals(1, fig(m, "election.bmh.database.full_copies_sent"), "CH1 got a full copy");
    assertEquals(fig(m, "election.bmh.database.messages_sent"), fig(m, "election.ch1.database.messages_received"));
    assertEquals(0, fig(m, "election.ch1.database.gaps"));
    // the second take-over, by CH1 from the copy the BMH sent it
    assertEquals(1, fig(m, "fm.takeover2.by_ch1"));
    assertEquals(90_000, fig(m, "fm.takeover2.primary_died_ns"), "CH1 watched the BMH, not the MMH");
    assertTrue(fig(m, "fm.takeover2.detection_ns") > 0 && fig(m, "fm.takeover2.detection_ns") <= 6_000 + 2_000);
    assertEquals(1, fig(m, "fm.takeover2.from_database"));
    assertEquals(0, fig(m, "fm.takeover2.from_controller"), "CH1 keeps no controller state");
    assertEquals(1, fig(m, "fm.takeover2.rereads"), "the dead BMH's one neighbor");
    assertFalse(m.containsKey("election.ch1.appointed_ch2"), "no candidate left to appoint");
    // the rack goes on under its third fabric manager: the NIC's cable out and back
    assertEquals(2, fig(m, "fm.activation_writes"), "tor.nic and the NIC's port, activated by CH1");
  }
}
