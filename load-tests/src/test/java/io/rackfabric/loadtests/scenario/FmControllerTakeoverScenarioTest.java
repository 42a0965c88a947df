package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.FlowControlScenarioTest.fig;
import static io.rackfabric.loadtests.scenario.FlowControlScenarioTest.figures;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.management.DatabaseDelta;
import io.rackfabric.fabric.management.TopologyDatabase;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.persistence.controller.ControllerEvent.FabricDatabaseRecorded;
import io.rackfabric.persistence.replay.JournalEntry;
import io.rackfabric.persistence.replay.Journals;
import io.rackfabric.persistence.replay.Replay;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundled {@code fm-controller-takeover}: the MMH's fabric manager's database changes are
 * events of its controller, replicated to the BMH; the MMH dies at 50us and the BMH's fabric manager
 * takes over from the database its replica's state holds, with the NIC's removal made before the
 * death in it; the BMH's control plane takes over later, and its first fabric database change as
 * master is recorded as a full copy. Two runs give the same model and count figures and the same journals.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class FmControllerTakeoverScenarioTest {

  private static final long DEATH_NS = 50_000;

  @TempDir Path dir;

  @Test
  void shouldTakeOverTheFabricManagerFromTheControllersStateWithTheChangeMadeBeforeTheDeath() throws Exception {
    Path firstDir = dir.resolve("first");
    Outcome first;
    String stragglers;
    try (StragglerLog log = new StragglerLog()) {
      first = run(firstDir);
      stragglers = log.lines();
    }
    Map<String, Double> m = figures(first);
    assertEquals(1, fig(m, "fm.takeover.by_bmh"));
    // the MMH's endpoint is stopped: its report, and so the death's figures, are gone with it
    assertTrue(fig(m, "fm.takeover.at_ns") > DEATH_NS, "after the death");
    assertEquals(fig(m, "fm.takeover.last_heartbeat_at_ns") + 6_000, fig(m, "fm.takeover.at_ns"),
        "the watch timeout after the last heartbeat");
    // The faults take effect at their model times while the CHs' drivers are handed their plans: the
    // MMH's last heartbeat (one every 2 us, the election's heartbeat) is the last one due before its
    // death, and nothing reached a component past its time. (The drivers once held the rack at the
    // master's clock, 60 us: the heartbeats ran on to 59,053 ns and the faults came in behind them.)
    double lastSent = fig(m, "fm.takeover.last_heartbeat_sent_ns");
    assertTrue(lastSent < DEATH_NS && lastSent >= DEATH_NS - 2_000, "the last heartbeat due before the death: " + lastSent);
    assertEquals(0, fig(m, "sync.stragglers"), "no event reached a component behind its clock: " + stragglers);
    assertEquals(1, fig(m, "fm.takeover.from_database"));
    assertEquals(1, fig(m, "fm.takeover.from_controller"), "the controller's state is authoritative");
    assertEquals(1, fig(m, "fm.takeover.rereads"), "the dead MMH's one neighbor, as from the copy over the fabric");
    assertEquals(8, fig(m, "fm.devices"), "the NIC removed again at 39 s; the dead MMH not");

    try (Journals journals = Journals.open(firstDir.resolve("data/rack.mv.db"))) {
      List<JournalEntry> mmh = journals.require("controller-mmh").events("controller-mmh", 0, Long.MAX_VALUE);
      List<JournalEntry> bmh = journals.require("controller-bmh").events("controller-bmh", 0, Long.MAX_VALUE);
      List<FabricDatabaseRecorded> byMmh = recorded(mmh);
      assertEquals(2, byMmh.size(), "the full copy after the discovery and the delta after tor's re-read: " + byMmh);
      assertTrue(byMmh.get(0).change().full());
      assertEquals(10, byMmh.get(0).change().devices().size(), "every device of ladon-testbed");
      DatabaseDelta delta = byMmh.get(1).change();
      assertTrue(!delta.full() && delta.removed().size() == 1, "the NIC removed after its cable was pulled: " + delta);
      assertTrue(byMmh.get(1).changedAt() > 30_000 && byMmh.get(1).changedAt() < DEATH_NS, "changed before the death");
      // what the BMH's fabric manager took over: the state after the MMH's two events, the NIC out
      TopologyDatabase taken = byMmh.get(0).change().then(delta).toDatabase();
      assertEquals(9, taken.devices().size());
      assertTrue(!taken.knows(delta.removed().get(0)), "the removal is in the database taken over");
      assertEquals(Replay.Verdict.PREFIX, Replay.compare("", mmh, bmh).verdict(), "the backup held every event");
      List<FabricDatabaseRecorded> byBmh = recorded(bmh).stream().filter(e -> e.manager().equals("bmh")).toList();
      assertEquals(1, byBmh.size(), "the BMH's own database, recorded with its first change as master: " + byBmh);
      assertTrue(byBmh.get(0).change().full(), "with what it changed while its host was the backup");
      assertTrue(byBmh.get(0).changedAt() >= 39_000_000_000L, "the NIC's cable pulled again at 39 s");
    }

    Path secondDir = dir.resolve("second");
    Outcome second = run(secondDir);
    assertEquals(FabricManagerScenarioTest.modelFigures(first), FabricManagerScenarioTest.modelFigures(second));
    assertEquals(TakeoverDeterminismTest.journals(firstDir.resolve("data")),
        TakeoverDeterminismTest.journals(secondDir.resolve("data")), "the journals of run 2");
  }

  private static List<FabricDatabaseRecorded> recorded(List<JournalEntry> journal) {
    return journal.stream().filter(e -> e.event() instanceof FabricDatabaseRecorded)
        .map(e -> (FabricDatabaseRecorded) e.event()).toList();
  }

  private static Outcome run(Path runDir) throws Exception {
    Scenario s = ScenarioLoader.loadBundled("fm-controller-takeover", ScenarioRunnerTest.KINDS, ScenarioOptions.NONE);
    Outcome o = new ScenarioRunner(ScenarioRunnerTest.KINDS).run(s, runDir, ScenarioRunnerTest.quiet());
    assertTrue(o.passed(), o.invariants().toString());
    return o;
  }
}
