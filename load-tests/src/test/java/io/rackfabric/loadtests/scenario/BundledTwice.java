package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.nio.file.Path;

/**
 * A bundled scenario run twice in one JVM, as the lending scenario tests check it: the first run
 * passed, and the second gave identical model and count figures.
 */
final class BundledTwice {

  private BundledTwice() {}

  /** The first run's outcome, once both runs were checked; each run's files under {@code dir}. */
  static Outcome run(String scenario, Path dir) throws Exception {
    Outcome first = once(scenario, dir.resolve("a"));
    Outcome second = once(scenario, dir.resolve("b"));
    assertTrue(first.passed(), DeterminismScenarioTest.modelOutcome(first).toString());
    assertEquals(TakeoverDeterminismTest.modelAndCount(first), TakeoverDeterminismTest.modelAndCount(second),
        "two runs give identical model figures");
    return first;
  }

  private static Outcome once(String scenario, Path dir) throws Exception {
    Scenario s = ScenarioLoader.loadBundled(scenario, ScenarioRunnerTest.KINDS, ScenarioOptions.NONE);
    return new ScenarioRunner(ScenarioRunnerTest.KINDS).run(s, dir, ScenarioRunnerTest.quiet());
  }
}
