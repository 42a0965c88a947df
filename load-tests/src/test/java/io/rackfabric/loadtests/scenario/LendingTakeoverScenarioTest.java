package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.device.gpu.CopySequence.CopyRecord;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.GpuCopiesResult;
import io.rackfabric.loadtests.scenario.api.LoanStepResult;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundled lending-mmh-takeover, with one copy of each size: the MMH stops at a model time
 * while CH2 copies through the GPU it borrowed; the copies all complete, the BMH takes over, and
 * the loan is intact on it (the return sent after the take-over is accepted), the same on every
 * run.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class LendingTakeoverScenarioTest {

  /** The MMH's stop in the scenario. */
  static final long STOP_NS = 5_000_000;

  @TempDir Path dir;

  @Test
  void shouldFinishTheStreamAndKeepTheLoanOnTheBackupAndGiveIdenticalFiguresWhenRunTwice() throws Exception {
    Outcome first = run("a");
    Outcome second = run("b");

    assertTrue(first.passed(), DeterminismScenarioTest.modelOutcome(first).toString());
    assertEquals(model(first), model(second), "two runs give identical model figures");
    assertEquals(0, figure(first, "sync.stragglers"), "the stopped MMH leaves the kernel's counts exact");
    GpuCopiesResult copies = first.result().gpuCopies().get(0);
    assertEquals("", copies.error());
    assertEquals(copies.spec().copies().size(), copies.copies().size(), "every copy of the stream completed");
    assertTrue(copies.copies().stream().anyMatch(c -> c.doorbellAt() > STOP_NS),
        "the stream went on past the MMH's stop: " + copies.copies().stream().map(CopyRecord::msiAt).toList());
    List<LoanStepResult> loans = first.result().loans();
    LoanStepResult ret = loans.get(3);
    double takeoverEnd = figure(first, "takeover1.bmh.total");
    assertTrue(ret.accepted() && ret.answeredAt() > takeoverEnd,
        "the return, answered by the BMH after its take-over, found the loan: " + ret);
    assertTrue(loans.get(4).accepted(), "and the GPU is lent again at once: " + loans.get(4));
  }

  private Outcome run(String name) throws Exception {
    String text = ScenarioLoader.text("lending-mmh-takeover");
    assertTrue(text.contains("repeat = 2"), "the stream's repeat");
    Path file = dir.resolve(name + ".conf");
    Files.writeString(file, text.replace("repeat = 2", "repeat = 1"));
    Scenario s = ScenarioLoader.load(file, ScenarioRunnerTest.KINDS, ScenarioOptions.NONE);
    return new ScenarioRunner(ScenarioRunnerTest.KINDS).run(s, dir.resolve(name), ScenarioRunnerTest.quiet());
  }

  private static Map<String, Double> model(Outcome o) {
    Map<String, Double> out = new TreeMap<>();
    for (Figure f : o.figures()) {
      if (f.clock().equals("model")) {
        out.put(f.name(), f.value());
      }
    }
    return out;
  }

  private static double figure(Outcome o, String name) {
    return o.figures().stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow().value();
  }
}
