package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.LoanStepResult;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.persistence.controller.Controller.Status;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundled lending-controller: Device Lending's operations through the Ladon controller, each a
 * model-time request of its host's driver, answered the same on every run.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class LendingControllerScenarioTest {

  @TempDir Path dir;

  @Test
  void shouldAcceptAndRefuseEachStepAsTheRulesSayAndGiveIdenticalFiguresWhenRunTwice() throws Exception {
    Outcome first = run("a");
    Outcome second = run("b");

    assertTrue(first.passed(), DeterminismScenarioTest.modelOutcome(first).toString());
    assertEquals(loans(first), loans(second), "two runs give identical figures");
    List<LoanStepResult> steps = first.result().loans();
    assertEquals(List.of(Status.ACCEPTED, Status.ACCEPTED, Status.REJECTED, Status.ACCEPTED, Status.REJECTED,
        Status.REJECTED, Status.ACCEPTED, Status.ACCEPTED), steps.stream().map(LoanStepResult::status).toList());
    assertTrue(steps.get(1).events().get(0).startsWith("DeviceLent[device=gpu1, borrower=ch2"),
        steps.get(1).events().toString());
    assertTrue(steps.get(2).detail().contains("its own device needs no loan"), steps.get(2).detail());
    assertTrue(steps.get(5).detail().contains("not to host=ch1"), steps.get(5).detail());
    for (LoanStepResult r : steps) {
      assertTrue(r.answeredAt() >= r.issuedAt(), "decided after it was sent: " + r);
      // An accepted step records its loan event and the request as applied; a refused one nothing.
      assertEquals(r.accepted() ? 2 : 0, r.events().size(), r.toString());
    }
  }

  private Outcome run(String name) throws Exception {
    Scenario s = ScenarioLoader.loadBundled("lending-controller", ScenarioRunnerTest.KINDS, ScenarioOptions.NONE);
    return new ScenarioRunner(ScenarioRunnerTest.KINDS).run(s, dir.resolve(name), ScenarioRunnerTest.quiet());
  }

  private static Map<String, Double> loans(Outcome o) {
    Map<String, Double> out = new TreeMap<>();
    for (Figure f : o.figures()) {
      if (f.name().startsWith("loan.")) {
        assertNull(out.put(f.name(), f.value()), "each figure once: " + f.name());
      }
    }
    assertEquals(16, out.size(), out.toString());
    return out;
  }
}
