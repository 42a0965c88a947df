package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.FaultRecordTest.readJson;
import static io.rackfabric.loadtests.scenario.ReplayCommandTest.modelAndCountFigures;
import static io.rackfabric.loadtests.scenario.ScenarioFiles.assertContains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Checked;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.persistence.replay.Journals;
import io.rackfabric.persistence.replay.Replay;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundled control-plane scenarios that run in one JVM: managed switchovers there and back and a
 * false suspicion, each under the NIC stream and the CHs' control-plane requests.
 */
class ControlPlaneScenarioTest {

  @TempDir Path dir;

  private static Outcome run(String name, Path runDir) throws Exception {
    Scenario s = ScenarioLoader.loadBundled(name, ScenarioKinds.standard(), ScenarioOptions.NONE);
    Outcome o = new ScenarioRunner(ScenarioKinds.standard()).run(s, runDir, System.out);
    for (Checked c : o.invariants()) {
      assertTrue(c.verdict().pass(), c.spec().label() + ": " + c.verdict().detail());
    }
    return o;
  }

  private static double figure(Outcome o, String name) {
    return o.figures().stream().filter(f -> f.name().equals(name)).mapToDouble(Figure::value).findFirst()
        .orElseThrow(() -> new AssertionError("no figure " + name));
  }

  @Test
  void shouldLoseNoRequestAndRepeatEveryModelFigureWhenTheMasterHandsOverAndBackAndIsReplayed() throws Exception {
    RackCall call = new RackCall();
    Path first = dir.resolve("switchover1");
    Path second = dir.resolve("switchover2");
    Path replay = dir.resolve("switchover-replay");
    // Exit 0: every invariant held (no packet lost, every request answered and applied once, mmh
    // master and bmh its caught-up backup at the end).
    assertEquals(0, call.run("run", "mmh-switchover", "--run-dir", first.toString()), call.err());
    assertEquals(0, call.run("run", "mmh-switchover", "--run-dir", second.toString()), call.err());
    Map<String, Object> result = readJson(first.resolve(RunFiles.RESULT));
    Map<String, Object> figures = modelAndCountFigures(result);
    assertEquals(figures, modelAndCountFigures(readJson(second.resolve(RunFiles.RESULT))), "same run, same figures");

    List<?> faults = (List<?>) result.get("faults_applied");
    assertTrue(String.valueOf(faults.get(0)).contains("mmh switched over: now BACKUP"), faults.toString());
    assertTrue(String.valueOf(faults.get(1)).contains("bmh switched over: now BACKUP"), faults.toString());
    for (String ch : List.of("ch1", "ch2")) {
      assertEquals(20.0, number(figures, "control." + ch + ".accepted"));
      assertEquals(20.0, number(figures, "control." + ch + ".pages_open"), "each request applied once");
      // Two streams through one NIC: each keeps its own 1 ms gaps whatever the wall order of the
      // other's doorbells (the NIC serves declared streams in model-time order).
      assertEquals(0.0, number(figures, "nic." + ch + ".lost"));
      assertEquals(1_000_000.0, number(figures, "nic." + ch + ".interarrival_min"), ch);
      assertEquals(1_000_000.0, number(figures, "nic." + ch + ".interarrival_max"), ch);
    }
    // Each switchover's duration comes from its messages: the hand-over across the MMH-BMH link
    // and the answer back; the second one, back from bmh, at a later sequence number.
    for (String p : List.of("switchover1.mmh.", "switchover2.bmh.")) {
      assertTrue(number(figures, p + "hand_over") > 0, p);
      assertTrue(number(figures, p + "total") > number(figures, p + "hand_over"), p);
      assertEquals(number(figures, p + "quiesce") + number(figures, p + "hand_over"),
          number(figures, p + "control_plane_pause"), p);
    }
    assertTrue(number(figures, "switchover2.bmh.seq_nr") > number(figures, "switchover1.mmh.seq_nr"));
    try (Journals journal = Journals.open(first.resolve("data/rack.mv.db"))) {
      var mmh = journal.require("controller-mmh").events("controller-mmh", 0, Long.MAX_VALUE);
      var bmh = journal.require("controller-bmh").events("controller-bmh", 0, Long.MAX_VALUE);
      // No new tenure: each host's one journal holds every event, whichever host was master.
      assertEquals(Replay.Verdict.IDENTICAL, Replay.compare("mmh ~ bmh", mmh, bmh).verdict());
      assertEquals(List.of("controller-bmh", "controller-mmh"), List.copyOf(journal.ids()));
    }
    assertEquals(0, call.run("run", "--replay", first.toString(), "--run-dir", replay.toString()), call.err());
    assertContains(call.out(), "replay: every model-time and count figure as recorded");
  }

  private static double number(Map<String, Object> figures, String name) {
    Object v = figures.get(name);
    assertTrue(v instanceof Number, "no figure " + name + " in " + figures.keySet());
    return ((Number) v).doubleValue();
  }

  @Test
  void shouldFenceTheLiveMasterAndKeepTheAcknowledgedJournalWhenFalselySuspected() throws Exception {
    Path runDir = dir.resolve("suspicion");
    Outcome o = run("mmh-false-suspicion", runDir);
    assertEquals(0, figure(o, "takeover1.bmh.data_plane_outage"));
    // The old master replicated before it persisted: its journal holds nothing the backup lacked,
    // so it is a prefix of the new master's (which went on serving), never a divergence.
    try (Journals journal = Journals.open(runDir.resolve("data/rack.mv.db"))) {
      var mmh = journal.require("controller-mmh").events("controller-mmh", 0, Long.MAX_VALUE);
      var bmh = journal.require("controller-bmh").events("controller-bmh", 0, Long.MAX_VALUE);
      Replay.Comparison c = Replay.compare("controller-mmh ~ controller-bmh", mmh, bmh);
      assertTrue(c.verdict() != Replay.Verdict.DIVERGED, "diverged at seqNr " + c.seqNr() + ": " + c.a() + " / " + c.b());
      assertTrue(mmh.size() <= bmh.size(), "the old master holds " + mmh.size() + " events, the new " + bmh.size());
      long recovered = (long) figure(o, "takeover1.bmh.events_recovered");
      assertTrue(bmh.size() >= recovered, "the new master recovered " + recovered + " of " + bmh.size());
      // The stream's VF was lent by the old master's controller and is in the new master's state.
      Replay.Folded now = Replay.stateAt(journal.require("controller-bmh"), "controller-bmh", bmh.size());
      assertEquals(Map.of(0, "ch1"), now.state().vfs("nic"));
    }
  }

  @Test
  void shouldRejoinAsBackupKeepBothTenuresAndRepeatEveryModelFigureWhenTheFencedMasterComesBack() throws Exception {
    List<List<Figure>> models = new java.util.ArrayList<>();
    for (int run = 1; run <= 2; run++) {
      Path runDir = dir.resolve("rejoin" + run);
      Outcome o = run("mmh-false-suspicion-rejoin", runDir);
      String note = o.result().faults().get(1).note();
      assertTrue(note.contains("mmh rejoined: now BACKUP"), note);
      models.add(o.figures().stream().filter(f -> f.clock().equals("model")).toList());
      try (Journals journal = Journals.open(runDir.resolve("data/rack.mv.db"))) {
        var old = journal.require("controller-mmh").events("controller-mmh", 0, Long.MAX_VALUE);
        var tenure = journal.require("controller-mmh.tenure-2").events("controller-mmh.tenure-2", 0, Long.MAX_VALUE);
        var master = journal.require("controller-bmh").events("controller-bmh", 0, Long.MAX_VALUE);
        // The old tenure is kept as the fenced master left it, a prefix; the new one is the master's.
        assertEquals(Replay.Verdict.PREFIX, Replay.compare("old ~ master", old, master).verdict());
        assertEquals(Replay.Verdict.IDENTICAL, Replay.compare("tenure-2 ~ master", tenure, master).verdict());
      }
    }
    assertEquals(models.get(0), models.get(1), "every model figure repeats");
  }
}
