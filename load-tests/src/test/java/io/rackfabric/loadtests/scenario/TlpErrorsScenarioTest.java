package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.ScenarioRunnerTest.figure;
import static io.rackfabric.loadtests.scenario.ScenarioRunnerTest.quiet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.scenario.language.KindCatalog;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Checked;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The bundled tlp-errors scenarios, in this JVM, with their known outcomes. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class TlpErrorsScenarioTest {

  static final KindCatalog<FaultType, InvariantType, FigureType> KINDS = ScenarioKinds.standard();

  @TempDir Path dir;

  private static Outcome runPassing(Scenario s, Path dir) throws Exception {
    Outcome o = new ScenarioRunner(KINDS).run(s, dir, quiet());
    for (Checked c : o.invariants()) {
      assertTrue(c.verdict().pass(), c.spec().label() + ": " + c.verdict().detail());
    }
    assertTrue(o.passed(), String.valueOf(o.result().notes()));
    return o;
  }

  @Test
  void shouldDeliverEverythingInOrderAndCountReplaysWhenLinksCorruptTlps() throws Exception {
    Scenario s = ScenarioLoader.loadBundled("tlp-corrupt-demo", KINDS, ScenarioOptions.NONE);
    Outcome o = runPassing(s, dir);
    assertEquals(1000, figure(o, "sink.ch2.delivered").value());
    assertEquals(0, figure(o, "sink.ch2.lost").value());
    assertTrue(figure(o, "link.tor.ntb2.replays").value() > 0);
    assertTrue(figure(o, "link.ch2.bad_lcrc").value() > 0);
    assertEquals(figure(o, "link.tor.ntb2.injected_corrupt").value(), figure(o, "link.ch2.bad_lcrc").value(),
        "every corrupted TLP failed its LCRC at the partner");
    assertTrue(figure(o, "link.tor.ntb2.injected_delays").value() > 0);
    assertTrue(figure(o, "link.mem.replays").value() > 0, "completions were replayed too");
    assertTrue(figure(o, "link.leaf.to-mem.replays").value() > 0, "read requests were replayed too");
    assertEquals(0, figure(o, "link.tor.ntb2.replay_rollovers").value());
    assertEquals("count", figure(o, "link.tor.ntb2.replays").clock());
  }

  @Test
  void shouldTakeTheLinkDownPastTheReplayLimitAndRetrainInModelTimeWhenALinkDropsEveryTlp() throws Exception {
    // Twice: the retraining is paced in model time, so what is lost while the link trains again is
    // the same on every run (it followed the wall clock before).
    Outcome o = BundledTwice.run("tlp-drop-demo", dir);
    assertTrue(figure(o, "link.tor.ntb2.replays").value() >= 4);
    assertTrue(figure(o, "link.tor.ntb2.injected_drops").value() > 0);
    Figure detection = figure(o, "fault1.tlp-errors.tor.ntb2.aer_detection.mh");
    assertEquals("model", detection.clock());
    // Five replay timeouts (1us each, plus the replays' own time on the wire) after the drops began.
    assertTrue(detection.value() > 5_000 && detection.value() <= 20_000, "AER at mh " + detection.value() + " ns after");
    assertEquals(500, figure(o, "sink.mem.delivered").value());
    // The link trains again 5us (the scenario's retry interval) after the rollover, while the drops
    // last (to 70us): it rolls over a second time, and is up from then to the end of the traffic.
    assertEquals(2, figure(o, "link.tor.ntb2.replay_rollovers").value());
    long lost = (long) figure(o, "sink.ch2.lost").value();
    assertTrue(lost > 0, "what was dropped past the limit is lost");
    assertEquals(1000, lost + figure(o, "sink.ch2.delivered").value());
    long writtenAfterTheRollover = (long) (100_000 - (50_000 + detection.value())) / 100; // a write per 100ns
    assertTrue(lost < writtenAfterTheRollover, lost + " lost: ch2 got writes again after the retraining");
    assertEquals(0, figure(o, "sync.stragglers").value());
  }
}
