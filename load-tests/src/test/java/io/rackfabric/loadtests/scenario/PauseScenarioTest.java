package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.ScenarioRunnerTest.KINDS;
import static io.rackfabric.loadtests.scenario.ScenarioRunnerTest.figure;
import static io.rackfabric.loadtests.scenario.ScenarioRunnerTest.quiet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.topology.LinkSpec;
import io.rackfabric.fabric.stats.PortStats;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Checked;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code pause-node} at a model time in one JVM ({@code pause-demo}): node-c's components handle
 * nothing for the pause, so ch2's writes due in it leave when it ends, nothing is lost and no link
 * goes down, and nothing reaches a component behind its clock.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class PauseScenarioTest {

  @TempDir Path dir;

  @Test
  void shouldHoldTheNodesWorkUntilThePauseEndsAndLoseNothingWhenPausedAtAModelTime() throws Exception {
    Scenario s = ScenarioLoader.loadBundled("pause-demo", KINDS, ScenarioOptions.NONE);
    FaultSpec pause = s.faults().get(0);
    assertEquals(List.of(pause.at().nanos()), pause.steps(), "in the model the whole pause is set at its start");
    assertTrue(s.reproducibilityProblems().isEmpty());
    Outcome o = new ScenarioRunner(KINDS).run(s, dir, quiet());
    for (Checked c : o.invariants()) {
      assertTrue(c.verdict().pass(), c.spec().label() + ": " + c.verdict().detail());
    }
    RunResult run = o.result();
    assertEquals(List.of(pause.at().nanos()), run.faults().stream().map(RunResult.AppliedFault::modelAt).toList());
    long length = pause.params().number("for", 0);

    // ch2's writes due in the pause wait for its end: the latest waited nearly all of it.
    double waited = figure(o, "sink.mh.latency_max").value();
    assertTrue(waited >= length * 9 / 10 && waited < length + 5_000, "mh's latency_max " + waited);
    assertEquals(0, figure(o, "sync.stragglers").value());
    for (LinkSpec l : s.topology().topology().links()) {
      for (String end : List.of(l.a(), l.b())) {
        PortStats before = linkStats(run, end, true);
        PortStats after = linkStats(run, end, false);
        assertEquals(before.linkDowns(), after.linkDowns(), end + " never went down");
      }
    }
  }

  private static PortStats linkStats(RunResult run, String end, boolean atStart) {
    return atStart ? PartitionScenarioTest.linkStats(run.endpointsAtStart(), run.portsAtStart(), end)
        : PartitionScenarioTest.linkStats(run.endpointsAtEnd(), run.portsAtEnd(), end);
  }
}
