package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.ScenarioRunnerTest.figure;
import static io.rackfabric.loadtests.scenario.ScenarioRunnerTest.quiet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.rackfabric.loadtests.scenario.language.KindCatalog;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.host.failover.FailoverBreakdown;
import io.rackfabric.host.failover.NotificationMode;
import io.rackfabric.loadtests.failover.LinkFailover;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Checked;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scenarios with the hosts' data-plane fail-over software: the bundled Table 2 and dual-star
 * switch scenarios, and the failover-completed invariant failing when it should.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class HostFailoverScenarioTest {

  static final KindCatalog<FaultType, InvariantType, FigureType> KINDS = ScenarioKinds.standard();

  @TempDir Path dir;

  private Outcome run(Scenario s) throws Exception {
    return new ScenarioRunner(KINDS).run(s, dir.resolve("run"), quiet());
  }

  private static void assertAllPass(Outcome o) {
    for (Checked c : o.invariants()) {
      assertTrue(c.verdict().pass(), c.spec().label() + ": " + c.verdict().detail());
    }
  }

  @Test
  void shouldMeasureWhatRackFailoverMeasuresWhenTable2RunsAsAScenario() throws Exception {
    Scenario s = ScenarioLoader.loadBundled("failover-table2", KINDS, ScenarioOptions.NONE);
    Outcome o = run(s);
    assertAllPass(o);

    // The same fault through the other harness: the model-time chain does not depend on which one drives it.
    FailoverBreakdown direct = LinkFailover.run(s.topology().topology(), 1, NotificationMode.UNICAST,
        ConfigFactory.empty(), quiet()).breakdown();
    String p = "fault1.link-down.ch1-rp.pri.failover.ch1.";
    assertEquals(direct.detectionNs(), figure(o, p + "detection").value());
    assertEquals(direct.determinationNs(), figure(o, p + "determination").value());
    assertEquals(direct.notificationNs(), figure(o, p + "notification").value());
    assertEquals(direct.totalNs(), figure(o, p + "total").value());
    assertEquals(direct.roundTripNs(), figure(o, p + "round_trip").value());
    assertEquals(8, direct.hosts().size());
  }

  @Test
  void shouldFailEveryComputeHostOverToSwitchBWhenSwitchADies() throws Exception {
    Outcome o = run(ScenarioLoader.loadBundled("dual-star-switch", KINDS, ScenarioOptions.NONE));
    assertAllPass(o);
    String p = "fault1.stop-actor.nt-pri.failover.plane.";
    double detection = figure(o, p + "detection").value();
    assertTrue(detection > 2_200 && detection < 3_000, "the MH's own AER driver: " + detection);
    assertEquals(0, figure(o, p + "determination").value(), "no report to wait for");
    assertTrue(o.figures().stream().noneMatch(f -> f.name().contains(".failover.ch")),
        "the CHs' own reports find the plane already failed over: no round of their own");
    assertTrue(o.result().failedComponents().contains("nt-pri"));
  }

  @Test
  void shouldFailTheInvariantWhenTheFailOverTakesLongerThanAllowed() throws Exception {
    Path file = dir.resolve("slow.conf");
    Files.writeString(file, String.join("\n",
        "scenario {",
        "  topology = ladon-testbed",
        "  run { duration = 100us }",
        "  traffic = [ { from = mmh, to = \"0x10_0010_0000\", interval = 1us } ]",
        "  faults = [ { kind = link-down, target = ch1-rp.pri, at = 20us } ]",
        "  invariants = [ { kind = failover-completed, within = 10us } ]",
        "}"));
    Outcome o = run(ScenarioLoader.load(file, KINDS, ScenarioOptions.NONE));
    Checked c = o.invariants().get(0);
    assertFalse(c.verdict().pass(), c.verdict().detail());
    assertTrue(c.verdict().detail().contains("ch1 failed over") && c.verdict().detail().contains("beyond within = 10us"),
        c.verdict().detail());
  }

  @Test
  void shouldFailTheInvariantNamingWhyWhenNoFailOverSoftwareRuns() throws Exception {
    Path file = dir.resolve("nomh.conf");
    Files.writeString(file, String.join("\n",
        "scenario {",
        "  topology = demo",
        "  traffic = [ { from = ch1, to = ch2, interval = 100ns, count = 100 } ]",
        "  faults = [ { kind = link-down, target = ch2, at = 5us } ]",
        "  invariants = [ failover-completed ]",
        "}"));
    Outcome o = run(ScenarioLoader.load(file, KINDS, ScenarioOptions.NONE));
    Checked c = o.invariants().get(0);
    assertFalse(c.verdict().pass());
    assertTrue(c.verdict().detail().contains("no global-memory.management-host"), c.verdict().detail());
  }
}
