package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.ScenarioRunnerTest.figure;
import static io.rackfabric.loadtests.scenario.ScenarioRunnerTest.quiet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.cli.Rack;
import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.loadtests.scenario.language.KindCatalog;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.cluster.topology.ControlPlaneSpec;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.host.controlplane.ControlPlaneHost.HostStatus;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import io.rackfabric.host.controlplane.ControlPlaneSettings;
import io.rackfabric.host.controlplane.Takeover;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.loadtests.scenario.BaselineRun.Row;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Checked;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scenario with a baseline, in one JVM on the ladon-testbed rack: the main run and the baseline
 * run on fresh racks, side by side. In one JVM the master's software is stopped instead of its JVM
 * killed (the multi-JVM test kills it): an attachment registers the MMH's control-plane host under
 * the MMH's id, so that {@code stop-actor mmh} stops it and its heartbeats, once the pair formed.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class BaselineScenarioTest {

  static final KindCatalog<FaultType, InvariantType, FigureType> KINDS = ScenarioKinds.standard();
  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir Path dir;

  /** Makes {@code stop-actor mmh} stop the MMH's control-plane software; counts the racks it joined. */
  static final class MastersSoftware implements RackAttachment {
    final AtomicInteger racks = new AtomicInteger();
    final int failFrom;

    /** @param failFrom the rack (1-based) from which attaching fails, as a rack that does not start */
    MastersSoftware(int failFrom) {
      this.failFrom = failFrom;
    }

    @Override
    public void attach(RunningRack rack) throws Exception {
      if (racks.incrementAndGet() >= failFrom) {
        throw new IllegalStateException("rack " + racks.get() + " refused to start (test)");
      }
      ControlPlaneSpec pair = rack.topology().controlPlane();
      ActorRef<ControlPlaneHost.Command> master = host(rack, pair.master());
      ActorRef<ControlPlaneHost.Command> backup = host(rack, pair.backup());
      // "Rack up" means links trained; the pair may still be booting. A master stopped before it
      // paired leaves the backup nothing to miss, so wait for the pair first.
      TestProbe.create(rack.system()).awaitAssert(WAIT, () -> {
        HostStatus m = Asks.ask(rack.system(), master, ControlPlaneHost.GetStatus::new, WAIT);
        HostStatus b = Asks.ask(rack.system(), backup, ControlPlaneHost.GetStatus::new, WAIT);
        assertEquals(Role.MASTER, m.role(), m.toString());
        assertEquals(m.lastSeqNr(), b.lastSeqNr(), "the backup holds what the master acknowledged");
        return null;
      });
      rack.register(pair.master(), master);
    }

    private static ActorRef<ControlPlaneHost.Command> host(RunningRack rack, String id) throws Exception {
      return Asks.find(rack.system(), ComponentKeys.controlPlaneHost(id), WAIT);
    }
  }

  private Scenario scenario(int packets) throws Exception {
    return ScenarioLoader.parse(String.join("\n",
        "scenario {",
        "  name = baseline-test",
        "  topology = ladon-testbed",
        "  control-plane { takeover = ladon, baseline = restart }",
        "  nic-stream { from = [ch1], count = " + packets + ", size = 64, interval = 1ms }",
        "  faults = [ { kind = stop-actor, target = mmh, at = \"wall 300ms\" } ]",
        "  invariants = [ takeover-completed, no-packet-lost ]",
        "}"), "baseline-test.conf", null, KINDS, ScenarioOptions.NONE);
  }

  @Test
  void shouldShowTheOutageOnlyInTheBaselineWhenBothRunsLoseTheMastersSoftware() throws Exception {
    // The master's software stops at a wall time, which falls early in the stream's 20 s of model
    // time (several seconds of wall time, on a fast machine or a slow one); the backup suspects it
    // at the heartbeat deadline in model time, and the baseline's 85 s restart window then covers
    // the rest of the stream: the restart must find part of it unsent.
    Scenario s = scenario(20_000);
    MastersSoftware software = new MastersSoftware(Integer.MAX_VALUE);
    ScenarioRunner runner = new ScenarioRunner(KINDS, List.of(software));
    Outcome main = runner.run(s, dir, quiet());
    BaselineRun b = BaselineRun.run(runner, s, dir, quiet());

    assertEquals(2, software.racks.get(), "a fresh rack for the baseline");
    assertFalse(b.failed(), b.error());
    assertEquals(dir.resolve("baseline"), b.runDir());
    assertTrue(Files.isDirectory(b.runDir().resolve("data")), "the baseline's journal in its own folder");
    for (Checked c : main.invariants()) {
      assertTrue(c.verdict().pass(), c.spec().label() + ": " + c.verdict().detail());
    }
    assertEquals(List.of(), b.outcome().invariants(), "the baseline's invariants are not judged");

    // Both took over; only the baseline stopped the data plane, for the modeled restart.
    ControlPlaneSettings cp = ControlPlaneSettings.create(ConfigFactory.load());
    assertEquals(0, figure(main, "takeover1.bmh.data_plane_outage").value());
    assertEquals(cp.restartTimeNs(), figure(b.outcome(), "takeover1.bmh.data_plane_outage").value());
    assertEquals(0, figure(main, "nic.ch1.lost").value());
    double lost = figure(b.outcome(), "nic.ch1.lost").value();
    assertTrue(lost > 0, "the baseline loses the packets due while the data plane is down");

    List<Row> rows = b.rows(main.figures());
    Row outage = rows.stream().filter(r -> r.name().equals("takeover1.bmh.data_plane_outage")).findFirst().orElseThrow();
    assertEquals(new Row(outage.name(), 0, cp.restartTimeNs(), "ns", "model"), outage);
    Row lostRow = rows.stream().filter(r -> r.name().equals("nic.ch1.lost")).findFirst().orElseThrow();
    assertEquals(new Row("nic.ch1.lost", 0, lost, "packets", "count"), lostRow);
    assertTrue(rows.stream().allMatch(r -> r.name().startsWith("takeover") || r.name().startsWith("nic.")), rows.toString());
    assertEquals(Takeover.RESTART, b.baseline());
  }

  @Test
  void shouldFailTheRunWhenTheBaselinesRackDoesNotStart() throws Exception {
    Scenario s = scenario(50);
    ScenarioRunner runner = new ScenarioRunner(KINDS, List.of(new MastersSoftware(2)));
    runner.run(s, dir, quiet());
    BaselineRun b = BaselineRun.run(runner, s, dir, quiet());
    assertTrue(b.failed());
    assertTrue(b.error().contains("takeover = restart") && b.error().contains("rack 2 refused to start (test)"),
        b.error());
    assertEquals(null, b.outcome());
  }

  @Test
  void shouldPrintTheSideBySideTableAndWriteTheBaselineIntoTheJsonWhenRackRunRunsIt() throws Exception {
    // No fault: no take-over in either run, but the NIC stream's figures are in both.
    Path file = dir.resolve("both.conf");
    Files.writeString(file, String.join("\n",
        "scenario {",
        "  topology = ladon-testbed",
        "  control-plane { takeover = ladon, baseline = restart }",
        "  nic-stream { from = [ch1], count = 50, size = 64, interval = 1ms }",
        "  invariants = [ no-packet-lost ]",
        "}"));
    Path json = dir.resolve("out.json");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int status = Rack.run(List.of("run", file.toString(), "--json", json.toString(), "--run-dir",
        dir.resolve("run").toString()), new PrintStream(out, true, StandardCharsets.UTF_8), quiet());
    String printed = out.toString(StandardCharsets.UTF_8);

    assertEquals(0, status, printed);
    assertTrue(Files.isDirectory(dir.resolve("run").resolve("baseline")), "the baseline's own folder");
    int mainTable = printed.indexOf("every invariant held");
    int sideBySide = printed.indexOf("side by side: control-plane.takeover = ladon (this run) and its baseline restart");
    assertTrue(mainTable >= 0 && sideBySide > mainTable, printed);
    assertTrue(printed.substring(sideBySide).lines().anyMatch(l -> List.of(l.trim().split("\\s+"))
        .equals(List.of("nic.ch1.received", "50", "50", "packets", "count"))), printed);
    String result = Files.readString(json);
    assertTrue(result.contains("\"baseline\": {\n    \"takeover\": \"restart\""), result);
    // Top-level keys are indented by two spaces: the main figures, the baseline, the main invariants.
    int figures = result.indexOf("\n  \"figures\": [");
    int baseline = result.indexOf("\n  \"baseline\": {");
    int invariants = result.indexOf("\n  \"invariants\": [");
    assertTrue(figures > 0 && figures < baseline && baseline < invariants, "beside the main figures: " + result);
    assertTrue(result.contains("\"passed\": true"), result);
  }
}
