package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.scenario.ScenarioRunner.Checked;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.language.Mode;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The fabric manager across JVMs: the bundled {@code fm-new-secondary} (election, activation, the
 * database shipped, a take-over, a new secondary appointed and a second take-over) run on the five
 * node JVMs of {@code ladon-testbed}, its management packets crossing Artery as Kryo-encoded
 * fabric messages, gives every fabric-manager and election figure, model time and count, that the
 * same scenario gives in one JVM, and the same verdicts.
 */
@Tag("multi-jvm")
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class FmMultiJvmScenarioTest {

  @Test
  void shouldGiveTheFiguresOfOneJvmWhenTheFabricManagerFailsOverTwiceAcrossNodeJvms() throws Exception {
    Path base = Path.of("target", "multi-jvm", "fm-new-secondary-" + System.currentTimeMillis());
    Outcome one = run(Mode.SINGLE_JVM, base.resolve("single"));
    Outcome many = run(Mode.MULTI_JVM, base.resolve("multi"));
    List<String> figures = FabricManagerScenarioTest.modelFigures(one);
    assertTrue(figures.stream().anyMatch(f -> f.startsWith("fm.takeover2.by_ch1 = 1")), figures.toString());
    assertEquals(figures, FabricManagerScenarioTest.modelFigures(many));
    assertEquals(verdicts(one), verdicts(many));
  }

  private static Outcome run(Mode mode, Path dir) throws Exception {
    Scenario s = ScenarioLoader.loadBundled("fm-new-secondary", TakeoverDeterminismTest.KINDS,
        new ScenarioOptions(mode, null, null));
    assertEquals(mode, s.mode());
    Outcome o = new ScenarioRunner(TakeoverDeterminismTest.KINDS).run(s, dir, System.out);
    for (Checked c : o.invariants()) {
      assertTrue(c.verdict().pass(), mode + ": " + c.spec().label() + ": " + c.verdict().detail());
    }
    return o;
  }

  private static List<String> verdicts(Outcome o) {
    return o.invariants().stream().map(c -> c.spec().label() + ": " + c.verdict().detail()).toList();
  }
}
