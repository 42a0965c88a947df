package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.ScenarioRunnerTest.figure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.scenario.TakeoverDeterminismTest.Repeatable;
import io.rackfabric.loadtests.scenario.language.Mode;
import java.util.ArrayList;
import java.util.Map;
import java.util.TreeMap;
import static org.junit.jupiter.api.Assertions.assertFalse;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.host.controlplane.ControlPlaneSettings;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Checked;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.loadtests.scenario.language.KindCatalog;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.persistence.replay.Journals;
import io.rackfabric.persistence.replay.Replay;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code mmh-double-takeover-model-time} on five node JVMs under the model-time kernel, twice: the
 * MMH's JVM killed at a model time, the BMH takes over; the MMH's node started again on its data
 * folder at a model time (the keeper takes its members back in) rejoins as backup in tenure 2; the
 * BMH's JVM killed, the MMH takes over again. Each run: every invariant, Table 1 for both
 * take-overs, no packet lost, every request applied once, no tenure DIVERGED; the two runs: every
 * model and count figure, verdict and replicated journal the same. (The wall-time {@code mmh-double-takeover}
 * is not run here: whether its restarted JVM has rejoined by the second kill's wall time depends on
 * the machine's load; under two busy loops it had not.)
 */
@Tag("multi-jvm")
@Timeout(value = 12, unit = TimeUnit.MINUTES)
class DoubleTakeoverScenarioTest {

  static final KindCatalog<FaultType, InvariantType, FigureType> KINDS = ScenarioKinds.standard();

  @Test
  void shouldSurviveASecondFailureAndRepeatEveryFigureWhenTheMastersNodeStartsAgainAtModelTimes()
      throws Exception {
    Scenario s = ScenarioLoader.loadBundled("mmh-double-takeover-model-time", KINDS, ScenarioOptions.NONE);
    assertEquals(Mode.MULTI_JVM, s.mode());
    assertTrue(s.reproducible() && s.reproducibilityProblems().isEmpty(), "model-time faults only");
    Path base = Path.of("target", "multi-jvm", "double-takeover-" + System.currentTimeMillis());

    List<Repeatable> runs = new ArrayList<>();
    for (int i = 1; i <= 2; i++) {
      Path runDir = base.resolve("run-" + i);
      Outcome o = new ScenarioRunner(KINDS).run(s, runDir, System.out);
      for (Checked c : o.invariants()) {
        assertTrue(c.verdict().pass(), "run " + i + ": " + c.spec().label() + ": " + c.verdict().detail());
      }
      String restart = o.result().faults().get(1).note();
      assertTrue(restart.contains("back in the model-time kernel from 40000000000 ns; mmh is BACKUP"), restart);
      assertEquals(0, figure(o, "sync.stragglers").value(), "nothing reached a component behind its clock");
      // Table 1 for each take-over, out of its own steps: the BMH's first, the rejoined MMH's
      // second, each moving tor's three other ports (VS1 to VS2, then back).
      assertTableOneForBothTakeovers(o);
      for (String ch : List.of("ch1", "ch2")) {
        assertEquals(0, figure(o, "nic." + ch + ".lost").value(), ch);
        double issued = figure(o, "control." + ch + ".issued").value();
        assertEquals(issued, figure(o, "control." + ch + ".accepted").value(), ch);
        assertEquals(issued, figure(o, "control." + ch + ".pages_open").value(), ch + ": each page opened once");
        assertEquals(0, figure(o, "control." + ch + ".given_up").value(), ch);
      }
      // The MMH's node journal holds both its tenures; neither diverges from the BMH's journal:
      // the first is a prefix of it, the second holds it whole (and what the MMH served after).
      List<Replay.Comparison> c = assertNoTenureDiverged(runDir);
      assertTrue(c.get(1).lengthA() >= c.get(1).lengthB(), "tenure 2 holds the BMH's history: " + c.get(1));
      // Every journal repeats, the killed MMH's first tenure too: what a controller committed
      // before its JVM was killed is in its file (JournalConfig's WRITE_DELAY=0; with H2's default
      // the last commits before the kill were there or not as the wall clock fell).
      Map<String, List<String>> journals = new TreeMap<>(TakeoverDeterminismTest.journals(runDir.resolve("data")));
      assertTrue(journals.containsKey("node-mmh.mv.db controller-mmh"), "the MMH's first tenure: " + journals.keySet());
      runs.add(new Repeatable(TakeoverDeterminismTest.modelAndCount(o), o.invariants().stream()
          .map(x -> x.spec().label() + ": " + x.verdict().pass() + " " + x.verdict().detail()).toList(),
          journals));
    }

    Repeatable first = runs.get(0);
    Repeatable second = runs.get(1);
    assertFalse(first.journals().isEmpty(), "the hosts' journals were read");
    assertEquals(first.figures(), second.figures(), "model and count figures of run 2");
    assertEquals(first.verdicts(), second.verdicts(), "invariants of run 2");
    assertEquals(first.journals(), second.journals(), "journals of run 2");
    List<ProcessHandle> alive = ProcessHandle.current().children().filter(ProcessHandle::isAlive).toList();
    assertEquals(List.of(), alive.stream().map(p -> p.info().commandLine().orElse("?")).toList());
  }

  /**
   * Compares each tenure of the MMH's node journal with the BMH's ({@code rack replay --compare}):
   * both tenures are there and neither DIVERGED.
   */
  static List<Replay.Comparison> assertNoTenureDiverged(Path runDir) throws Exception {
    try (Journals mmh = Journals.open(runDir.resolve("data/node-mmh.mv.db"));
        Journals bmh = Journals.open(runDir.resolve("data/node-bmh.mv.db"))) {
      List<Replay.Comparison> c = Replay.compare(mmh, bmh, Optional.empty());
      assertEquals(List.of("controller-mmh ~ controller-bmh", "controller-mmh.tenure-2 ~ controller-bmh"),
          c.stream().map(Replay.Comparison::persistenceId).toList());
      for (Replay.Comparison x : c) {
        assertNotEquals(Replay.Verdict.DIVERGED, x.verdict(), runDir + ": " + x);
      }
      return c;
    }
  }

  /**
   * Table 1 for each of a run's two take-overs ({@code takeover1.bmh.*}, {@code takeover2.mmh.*}),
   * out of its own steps: detection, port reassignment, reboot as the settings give them, no
   * data-plane outage, tor's three other ports moved (VS1 to VS2, then back).
   */
  static void assertTableOneForBothTakeovers(Outcome o) {
    ControlPlaneSettings cp = ControlPlaneSettings.create(ConfigFactory.load());
    for (String p : List.of("takeover1.bmh.", "takeover2.mmh.")) {
      assertEquals(cp.suspicionAfterNs() + cp.linkLatencyNs(), figure(o, p + "detection").value(), p);
      assertEquals(cp.portReassignmentNs(), figure(o, p + "port_reassignment").value(), p);
      assertEquals(cp.rebootTimeNs(), figure(o, p + "reboot").value(), p);
      assertEquals(0, figure(o, p + "data_plane_outage").value(), p);
      assertEquals(3, figure(o, p + "ports_moved").value(), p);
    }
  }
}
