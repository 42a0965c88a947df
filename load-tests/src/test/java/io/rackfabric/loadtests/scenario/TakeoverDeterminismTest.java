package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.ScenarioRunnerTest.figure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.rackfabric.host.controlplane.ControlPlaneSettings;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Checked;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.loadtests.scenario.language.KindCatalog;
import io.rackfabric.loadtests.scenario.language.Mode;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.persistence.replay.IdSummary;
import io.rackfabric.persistence.replay.JournalReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The master management host's JVM killed at a model time, on five node JVMs under the model-time
 * kernel, three times, the third with the backup's JVM frozen (SIGSTOP) for 3 s of wall time just
 * after the kill, as a starved machine would: every model-time and count figure, every
 * invariant's verdict and detail, and both hosts' controller journals (the stored bytes of every
 * event) are the same on each run.
 */
@Tag("multi-jvm")
@Timeout(value = 30, unit = TimeUnit.MINUTES)
class TakeoverDeterminismTest {

  static final KindCatalog<FaultType, InvariantType, FigureType> KINDS = ScenarioKinds.standard();

  /** What a run must repeat exactly. */
  record Repeatable(Map<String, Double> figures, List<String> verdicts, Map<String, List<String>> journals) {}

  @Test
  void shouldRepeatEveryFigureVerdictAndJournalByteWhenTheMastersJvmIsKilledAtAModelTime() throws Exception {
    Scenario s = ScenarioLoader.loadBundled("mmh-takeover-model-time", KINDS, ScenarioOptions.NONE);
    assertEquals(Mode.MULTI_JVM, s.mode());
    assertTrue(s.reproducible() && s.reproducibilityProblems().isEmpty(), "a model-time kill only");
    Path base = Path.of("target", "multi-jvm", "takeover-determinism-" + System.currentTimeMillis());

    List<Repeatable> runs = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      Path runDir = base.resolve("run-" + i);
      Outcome o;
      if (i < 3) {
        o = new ScenarioRunner(KINDS).run(s, runDir, System.out);
      } else {
        FrozenNode freeze = new FrozenNode("node-bmh", "  stretch 2/", 3);
        try (freeze) {
          o = new ScenarioRunner(KINDS).run(s, runDir, freeze.progress());
        }
        assertTrue(freeze.wasFrozen(), "node-bmh was frozen after the kill");
      }
      for (Checked c : o.invariants()) {
        assertTrue(c.verdict().pass(), "run " + i + ": " + c.spec().label() + ": " + c.verdict().detail());
      }
      if (i == 1) {
        // The take-over follows from the kill's model time and the settings alone.
        ControlPlaneSettings cp = ControlPlaneSettings.create(ConfigFactory.load());
        assertEquals(cp.suspicionAfterNs() + cp.linkLatencyNs(), figure(o, "takeover1.bmh.detection").value());
        assertEquals(0, figure(o, "sync.stragglers").value(), "nothing reached a component behind its clock");
        assertTrue(figure(o, "control.ch1.answered_after_takeover").value() > 0, "requests spanned the take-over");
      }
      runs.add(new Repeatable(modelAndCount(o), verdicts(o), journals(runDir.resolve("data"))));
    }

    Repeatable first = runs.get(0);
    assertFalse(first.journals().isEmpty(), "both hosts' journals were read");
    assertTrue(first.journals().values().stream().allMatch(events -> !events.isEmpty()));
    for (int i = 1; i < runs.size(); i++) {
      Repeatable other = runs.get(i);
      assertEquals(first.figures(), other.figures(), "model and count figures of run " + (i + 1));
      assertEquals(first.verdicts(), other.verdicts(), "invariants of run " + (i + 1));
      assertEquals(first.journals().keySet(), other.journals().keySet());
      for (String id : first.journals().keySet()) {
        assertEquals(first.journals().get(id), other.journals().get(id), "journal " + id + " of run " + (i + 1));
      }
    }
  }

  /** The figures on the model clock and the counts, by name. */
  static Map<String, Double> modelAndCount(Outcome o) {
    Map<String, Double> out = new TreeMap<>();
    o.figures().stream().filter(f -> !f.clock().equals("wall")).forEach(f -> out.put(f.name(), f.value()));
    return out;
  }

  private static List<String> verdicts(Outcome o) {
    return o.invariants().stream().map(c -> c.spec().label() + ": " + c.verdict().pass() + " " + c.verdict().detail())
        .toList();
  }

  /** Every node's journal, each persistence id's stored events, by file and id. */
  static Map<String, List<String>> journals(Path data) throws Exception {
    Map<String, List<String>> out = new TreeMap<>();
    List<Path> files;
    try (Stream<Path> list = Files.list(data)) {
      files = list.filter(p -> p.toString().endsWith(JournalReader.SUFFIX)).sorted().toList();
    }
    for (Path file : files) {
      try (JournalReader reader = JournalReader.open(file)) {
        for (IdSummary id : reader.summaries()) {
          out.put(file.getFileName() + " " + id.persistenceId(), reader.storedEvents(id.persistenceId()));
        }
      }
    }
    return out;
  }
}
