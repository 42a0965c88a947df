package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.FaultRecordTest.map;
import static io.rackfabric.loadtests.scenario.FaultRecordTest.readJson;
import static io.rackfabric.loadtests.scenario.ReplayCommandTest.modelAndCountFigures;
import static io.rackfabric.loadtests.scenario.ScenarioFiles.assertContains;
import static io.rackfabric.loadtests.scenario.ScenarioRunnerTest.KINDS;
import static io.rackfabric.loadtests.scenario.ScenarioRunnerTest.figure;
import static io.rackfabric.loadtests.scenario.ScenarioRunnerTest.quiet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.topology.LinkSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.stats.EndpointStats.AerRecord;
import io.rackfabric.fabric.stats.PortStats;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Checked;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.RunResult.AppliedFault;
import io.rackfabric.loadtests.scenario.api.RunResult.Boundary;
import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code partition} at a model time in one JVM ({@code partition-demo}): the links between the
 * two nodes go down at the fault's time and come back up {@code for} later, as link-down and
 * link-up would take them; the traffic across them is lost meanwhile and only there; the record
 * replays it, with the same model figures.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class PartitionScenarioTest {

  @TempDir Path dir;

  private final RackCall call = new RackCall();

  @Test
  void shouldTakeTheLinksBetweenTheNodesDownAtTheFaultAndUpForLaterWhenPartitionedAtAModelTime() throws Exception {
    Scenario s = ScenarioLoader.loadBundled("partition-demo", KINDS, ScenarioOptions.NONE);
    Outcome o = new ScenarioRunner(KINDS).run(s, dir, quiet());
    for (Checked c : o.invariants()) {
      assertTrue(c.verdict().pass(), c.spec().label() + ": " + c.verdict().detail());
    }
    RunResult run = o.result();
    FaultSpec partition = s.faults().get(0);
    long cut = partition.steps().get(0);
    long heal = partition.steps().get(1);
    assertEquals(cut + partition.params().number("for", 0), heal, "for is model time when at is");

    // Both steps stamped with their model times: the cut takes links down (AER due), the heal none.
    List<AppliedFault> steps = run.faults();
    assertEquals(2, steps.size());
    assertEquals(List.of(cut, heal), steps.stream().map(AppliedFault::modelAt).toList());
    assertEquals(List.of(true, false), steps.stream().map(AppliedFault::takesLinkDown).toList());
    assertEquals(cut, figure(o, "fault1.partition.node-a.at").value());
    assertEquals(heal, figure(o, "fault2.partition.node-a.at").value());

    // Every link between node-a and node-b (and none else) went down once and came up once.
    Topology topology = s.topology().topology();
    List<LinkSpec> crossing = topology.linksBetween("node-a", "node-b");
    assertFalse(crossing.isEmpty());
    for (LinkSpec l : topology.links()) {
      for (String end : List.of(l.a(), l.b())) {
        PortStats before = linkStats(run.endpointsAtStart(), run.portsAtStart(), end);
        PortStats after = linkStats(run.endpointsAtEnd(), run.portsAtEnd(), end);
        long times = crossing.contains(l) ? 1 : 0;
        assertEquals(times, after.linkDowns() - before.linkDowns(), end + " link downs");
        assertEquals(times, after.linkUps() - before.linkUps(), end + " link ups");
        assertEquals(DataLinkState.DL_ACTIVE, after.state(), end + " at the end");
      }
    }
    assertEquals(crossingEnds(crossing), run.faultedEnds());
    // Just before the heal ch1's cable (tor.ntb1 -- ch1) is still down; ch2's never went.
    Boundary beforeHeal = run.boundaries().stream().filter(b -> b.modelAt() == heal).findFirst().orElseThrow();
    assertNotEquals(DataLinkState.DL_ACTIVE, beforeHeal.endpoints().get("ch1").link().state());
    assertEquals(DataLinkState.DL_ACTIVE, beforeHeal.endpoints().get("ch2").link().state());

    // Down at the cut: ch1, the root of its domain, records its own link's loss then, and each
    // cut switch port of mh's domain reports ERR_FATAL to mh, at or after the cut.
    List<AerRecord> ch1 = run.newAer("ch1");
    assertEquals(1, ch1.size(), ch1.toString());
    assertTrue(ch1.get(0).modelAt() >= cut && ch1.get(0).modelAt() < heal, ch1.toString());
    List<AerRecord> mh = run.newAer("mh");
    assertEquals(crossing.size(), mh.size(), "one per cut cable of mh's domain: " + mh);
    assertTrue(mh.stream().allMatch(r -> r.modelAt() >= cut && r.modelAt() < heal), mh.toString());
    assertEquals(mh.get(0).modelAt() - cut, figure(o, "fault1.partition.node-a.aer_detection.mh").value());

    // Across the cut, writes are lost while the links are down (stamped from shortly before the
    // cut, those still on their way, until shortly after the heal, the links training) and only
    // there; after the heal they flow again. The path that crosses no cut link loses nothing.
    for (String t : List.of("ch1-to-ch2", "mh-to-mem")) {
      var spec = s.traffic().stream().filter(g -> g.name().equals(t)).findFirst().orElseThrow();
      String sink = spec.sink();
      long sent = (long) figure(o, "traffic." + t + ".sent").value() + run.trafficResult(t).skipped();
      long stampedWhileCut = (heal - cut) / spec.intervalNs();
      double delivered = figure(o, "sink." + sink + ".delivered").value();
      double inFlight = Math.ceil(figure(o, "sink." + sink + ".latency_max").value() / spec.intervalNs());
      assertTrue(delivered <= sent - stampedWhileCut, t + ": " + delivered + " of " + sent + " delivered");
      assertTrue(delivered >= sent - stampedWhileCut - 2 * inFlight,
          t + ": " + delivered + " of " + sent + " delivered, " + inFlight + " in flight: the links came back");
    }
    assertEquals(0, figure(o, "sink.mh.lost").value());
    assertTrue(figure(o, "failed_ends.dropped").value() > 0);
  }

  @Test
  void shouldGiveTheSameModelFiguresWhenAModelTimePartitionRunsAgainAndIsReplayed() throws Exception {
    Path first = dir.resolve("first");
    Path second = dir.resolve("second");
    Path replay = dir.resolve("replay");
    assertEquals(0, call.run("run", "partition-demo", "--run-dir", first.toString()), call.err());
    assertEquals(0, call.run("run", "partition-demo", "--run-dir", second.toString()), call.err());
    Map<String, Object> recorded = readJson(first.resolve(RunFiles.RESULT));
    Map<String, Object> figures = modelAndCountFigures(recorded);
    assertTrue(figures.containsKey("fault1.partition.node-a.aer_detection.mh"), figures.toString());
    assertEquals(figures, modelAndCountFigures(readJson(second.resolve(RunFiles.RESULT))));

    // The record holds both steps at their model times, and the replay applies them there.
    Map<String, Object> fault = map(((List<?>) map(recorded.get(FaultRecord.KEY)).get("faults")).get(0));
    assertEquals("partition", fault.get("kind"));
    assertEquals("model", map(fault.get("asked")).get("clock"));
    List<Object> modelNs = new ArrayList<>();
    for (Object step : (List<?>) fault.get("applied")) {
      assertEquals("stamped", map(step).get("model_from"));
      modelNs.add(map(step).get("model_ns"));
    }
    assertEquals(map(fault.get("asked")).get("steps_ns"), modelNs);
    assertEquals(0, call.run("run", "--replay", first.toString(), "--run-dir", replay.toString()), call.err());
    assertContains(call.out(), "replay: every model-time and count figure as recorded");
    assertEquals(figures, modelAndCountFigures(readJson(replay.resolve(RunFiles.RESULT))));
  }

  private static Set<String> crossingEnds(List<LinkSpec> links) {
    Set<String> ends = new HashSet<>();
    links.forEach(l -> {
      ends.add(l.a());
      ends.add(l.b());
    });
    return ends;
  }

  static PortStats linkStats(Map<String, EndpointStats> endpoints,
      Map<String, PortStats> ports, String end) {
    return LinkSpec.portOf(end) == null ? endpoints.get(end).link() : ports.get(end);
  }
}
