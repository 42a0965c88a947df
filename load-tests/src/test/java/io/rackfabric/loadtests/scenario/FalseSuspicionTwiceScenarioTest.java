package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.ScenarioRunnerTest.figure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.cli.Rack;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Checked;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.RunResult.AppliedFault;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.persistence.replay.JournalEntry;
import io.rackfabric.persistence.replay.Journals;
import io.rackfabric.persistence.replay.Replay;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mmh-false-suspicion-twice} in one JVM under the model-time kernel: the master (mmh) falsely
 * suspected, the backup (bmh) takes over, mmh rejoins as its backup in tenure 2; then bmh falsely
 * suspected in its turn, mmh takes over again from its tenure-2 journal and bmh rejoins as its
 * backup in tenure 2. Run twice: the same model and count figures and the same journals.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class FalseSuspicionTwiceScenarioTest {

  private static final List<String> MMH = List.of("controller-mmh", "controller-mmh.tenure-2");
  private static final List<String> BMH = List.of("controller-bmh", "controller-bmh.tenure-2");

  @TempDir Path dir;

  @Test
  void shouldSurviveASecondFalseSuspicionWithEachFencedMasterRejoiningAndRepeatEveryFigureWhenRunTwice()
      throws Exception {
    List<List<String>> outcomes = new ArrayList<>();
    List<Map<String, List<String>>> journals = new ArrayList<>();
    for (int run = 1; run <= 2; run++) {
      Path runDir = dir.resolve("run-" + run);
      // Every invariant: no packet lost, every control request answered and applied once, both
      // take-overs completed, mmh master and bmh its backup at the end.
      Outcome o = runPassing("mmh-false-suspicion-twice", runDir, run);
      assertNoteOf(o, "mmh rejoined: now BACKUP", "journal controller-mmh.tenure-2");
      assertNoteOf(o, "bmh rejoined: now BACKUP", "journal controller-bmh.tenure-2");
      assertTableOneForEachTakeover(o);
      assertEquals(4200, figure(o, "nic.ch1.received").value(), "run " + run);
      assertEquals(10_000_000, figure(o, "nic.ch1.interarrival_max").value(), "run " + run + ": flat across both");
      assertEachPageOpenedOnce(o, run);
      assertNoTenurePairDiverged(runDir);
      assertReplayListsBothHostsTenures(runDir);
      List<String> outcome = new ArrayList<>(DeterminismScenarioTest.modelOutcome(o));
      o.result().faults().forEach(f -> outcome.add(f.note())); // sequence numbers of each rejoin
      outcomes.add(outcome);
      journals.add(TakeoverDeterminismTest.journals(runDir.resolve("data")));
    }
    assertEquals(outcomes.get(0), outcomes.get(1), "model and count figures, invariants, fault notes of run 2");
    assertEquals(journals.get(0), journals.get(1), "journals of run 2");
  }

  /** Runs bundled scenario {@code name} into {@code runDir} and checks that every invariant held. */
  static Outcome runPassing(String name, Path runDir, int run) throws Exception {
    Scenario s = ScenarioLoader.loadBundled(name, ScenarioRunnerTest.KINDS, ScenarioOptions.NONE);
    Outcome o = new ScenarioRunner(ScenarioRunnerTest.KINDS).run(s, runDir, System.out);
    for (Checked c : o.invariants()) {
      assertTrue(c.verdict().pass(), "run " + run + ": " + c.spec().label() + ": " + c.verdict().detail());
    }
    return o;
  }

  /** Each CH's control requests: every accepted one opened its page once, none given up. */
  static void assertEachPageOpenedOnce(Outcome o, int run) {
    for (String ch : List.of("ch1", "ch2")) {
      assertEquals(figure(o, "control." + ch + ".accepted").value(), figure(o, "control." + ch + ".pages_open").value(),
          "run " + run + ": each of " + ch + "'s pages opened once");
      assertEquals(0, figure(o, "control." + ch + ".given_up").value(), ch);
    }
  }

  private static void assertNoteOf(Outcome o, String... parts) {
    List<String> notes = o.result().faults().stream().map(AppliedFault::note).toList();
    assertTrue(notes.stream().anyMatch(n -> List.of(parts).stream().allMatch(n::contains)),
        "no note with " + List.of(parts) + " in " + notes);
  }

  /** Table 1 for each take-over, out of its own steps: bmh's first (VS1 to VS2), mmh's second (back). */
  private static void assertTableOneForEachTakeover(Outcome o) {
    DoubleTakeoverScenarioTest.assertTableOneForBothTakeovers(o);
    assertTrue(figure(o, "takeover2.mmh.events_recovered").value() > figure(o, "takeover1.bmh.events_recovered").value(),
        "the second take-over recovers the first master's history and more");
  }

  /**
   * Every tenure of one host against every tenure of the other, as {@code rack replay --compare}
   * pairs them: never DIVERGED. Each fenced tenure is a prefix of the tenure that fenced it, and
   * the two last tenures hold the same history.
   */
  private static void assertNoTenurePairDiverged(Path runDir) throws Exception {
    try (Journals journal = Journals.open(runDir.resolve("data/rack.mv.db"))) {
      Map<String, List<JournalEntry>> events = new TreeMap<>();
      for (String id : concat(MMH, BMH)) {
        events.put(id, journal.require(id).events(id, 0, Long.MAX_VALUE));
      }
      for (String a : MMH) {
        for (String b : BMH) {
          Replay.Comparison c = Replay.compare(a + " ~ " + b, events.get(a), events.get(b));
          assertNotEquals(Replay.Verdict.DIVERGED, c.verdict(), c.toString());
        }
      }
      assertEquals(Replay.Verdict.PREFIX, Replay.compare("", events.get(MMH.get(0)), events.get(BMH.get(0))).verdict(),
          "mmh's fenced tenure 1 is a prefix of bmh's tenure 1");
      assertEquals(Replay.Verdict.PREFIX, Replay.compare("", events.get(BMH.get(0)), events.get(MMH.get(1))).verdict(),
          "bmh's fenced tenure 1 is a prefix of mmh's tenure 2");
      assertEquals(Replay.Verdict.IDENTICAL, Replay.compare("", events.get(MMH.get(1)), events.get(BMH.get(1))).verdict(),
          "the two last tenures hold the same history");
    }
  }

  /** {@code rack replay --journal RUN/data} names each host's two tenures under its table. */
  private static void assertReplayListsBothHostsTenures(Path runDir) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int status = Rack.run(List.of("replay", "--journal", runDir.resolve("data").toString()),
        new PrintStream(out, true, StandardCharsets.UTF_8), ScenarioRunnerTest.quiet());
    String text = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, status, text);
    assertTrue(text.contains("tenures: 1 controller-bmh, 2 controller-bmh.tenure-2"), text);
    assertTrue(text.contains("tenures: 1 controller-mmh, 2 controller-mmh.tenure-2"), text);
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }
}
