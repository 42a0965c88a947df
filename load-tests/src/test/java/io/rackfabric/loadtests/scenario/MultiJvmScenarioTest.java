package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.ScenarioRunnerTest.figure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.rackfabric.loadtests.scenario.language.KindCatalog;
import io.rackfabric.loadtests.scenario.language.Mode;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.host.controlplane.ControlPlaneSettings;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Checked;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.persistence.replay.Journals;
import io.rackfabric.persistence.replay.Replay;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The bundled kill-node scenario on three node JVMs over aeron-udp: a compute host's JVM is
 * killed mid-run, its switch port takes the surprise down and tells the management host, the
 * other path loses nothing; and every JVM the run started is gone when it returns.
 */
@Tag("multi-jvm")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MultiJvmScenarioTest {

  static final KindCatalog<FaultType, InvariantType, FigureType> KINDS = ScenarioKinds.standard();

  @Test
  void shouldHoldEveryInvariantAndStopEveryJvmWhenANodeIsKilledMidRun() throws Exception {
    Scenario s = ScenarioLoader.loadBundled("kill-node-demo", KINDS, ScenarioOptions.NONE);
    assertEquals(Mode.MULTI_JVM, s.mode());
    Path runDir = Path.of("target", "multi-jvm", "scenario-" + System.currentTimeMillis());
    Outcome o = new ScenarioRunner(KINDS).run(s, runDir, System.out);

    for (Checked c : o.invariants()) {
      assertTrue(c.verdict().pass(), c.spec().label() + ": " + c.verdict().detail());
    }
    assertEquals(500, figure(o, "sink.ch1.delivered").value(), "mh's writes to ch1 on node-b");
    assertEquals(500, figure(o, "traffic.ch1-to-ch2.sent").value());
    assertTrue(figure(o, "aer.mh.records").value() >= 1, "tor.ntb2's surprise down reached mh");
    assertTrue(o.result().failedComponents().contains("ch2"));
    assertEquals("kill-node", o.result().faults().get(0).spec().kind());
    assertEquals(50_000, o.result().faults().get(0).modelAt(), "a kill at a model time happens at it");
    assertTrue(Files.exists(runDir.resolve("logs").resolve("node-a.log")), "node logs in the run folder");
    // The runner stops what it started: node JVMs and the shared media driver.
    List<ProcessHandle> alive = ProcessHandle.current().children().filter(ProcessHandle::isAlive).toList();
    assertEquals(List.of(), alive.stream().map(p -> p.info().commandLine().orElse("?")).toList());
  }

  @Test
  void shouldSwitchOverAndBackAcrossJvmsAndLoseNothingWhenAskedAtModelTimes() throws Exception {
    Scenario s = ScenarioLoader.loadBundled("mmh-switchover-multi-jvm", KINDS, ScenarioOptions.NONE);
    assertEquals(Mode.MULTI_JVM, s.mode());
    Path runDir = Path.of("target", "multi-jvm", "switchover-" + System.currentTimeMillis());
    Outcome o = new ScenarioRunner(KINDS).run(s, runDir, System.out);
    for (Checked c : o.invariants()) {
      assertTrue(c.verdict().pass(), c.spec().label() + ": " + c.verdict().detail());
    }
    assertTrue(o.result().faults().get(0).note().startsWith("mmh switched over: now BACKUP"),
        o.result().faults().get(0).note());
    assertTrue(o.result().faults().get(1).note().startsWith("bmh switched over: now BACKUP"),
        o.result().faults().get(1).note());
    for (String ch : List.of("ch1", "ch2")) {
      assertEquals(10, figure(o, "control." + ch + ".pages_open").value(), "each request applied once");
      assertEquals(0, figure(o, "nic." + ch + ".lost").value());
    }
    // The breakdowns crossed from the hosts' JVMs: the hand-over and its answer over the link.
    for (String p : List.of("switchover1.mmh.", "switchover2.bmh.")) {
      assertTrue(figure(o, p + "total").value() > figure(o, p + "hand_over").value(), p);
    }
  }

  /** Runs a bundled take-over scenario, prints its stream and take-over figures, checks every invariant held. */
  private static Outcome runTakeover(String name, Path runDir) throws Exception {
    Scenario s = ScenarioLoader.loadBundled(name, KINDS, ScenarioOptions.NONE);
    Outcome o = new ScenarioRunner(KINDS).run(s, runDir, System.out);
    o.figures().stream().filter(f -> f.name().startsWith("nic.") || f.name().startsWith("takeover"))
        .forEach(f -> System.out.println("  " + f));
    for (Checked c : o.invariants()) {
      assertTrue(c.verdict().pass(), c.spec().label() + ": " + c.verdict().detail());
    }
    return o;
  }

  @Test
  void shouldTakeOverOnTheBackupAndLoseNoPacketWhenTheMastersJvmIsKilled() throws Exception {
    Path runDir = Path.of("target", "multi-jvm", "takeover-" + System.currentTimeMillis());
    Outcome o = runTakeover("mmh-takeover", runDir);
    // Table 1 out of the take-over's own steps: the heartbeat timeout after the last heartbeat that
    // crossed the link, the switch's partition update, the modeled reboot.
    ControlPlaneSettings cp = ControlPlaneSettings.create(ConfigFactory.load());
    assertEquals((long) (cp.heartbeatIntervalNs() * cp.missedHeartbeats()) + cp.linkLatencyNs(),
        figure(o, "takeover1.bmh.detection").value());
    assertEquals(cp.portReassignmentNs(), figure(o, "takeover1.bmh.port_reassignment").value());
    assertEquals(cp.rebootTimeNs(), figure(o, "takeover1.bmh.reboot").value());
    assertEquals(0, figure(o, "takeover1.bmh.data_plane_outage").value(), "Ladon: the data plane never stops");
    // The NIC stream across the fail-over: every packet, exactly one interval apart in model time.
    for (String ch : List.of("ch1", "ch2")) {
      // Both CHs' streams through the one NIC: each flat, whatever the JVMs' wall order.
      assertEquals(3000, figure(o, "nic." + ch + ".received").value(), ch);
      assertEquals(0, figure(o, "nic." + ch + ".lost").value(), ch);
      assertEquals(1_000_000, figure(o, "nic." + ch + ".interarrival_min").value(), ch);
      assertEquals(1_000_000, figure(o, "nic." + ch + ".interarrival_max").value(), ch + ": flat across the take-over");
      assertTrue(figure(o, "nic." + ch + ".wall_interarrival_max").value() > 0);
    }
    // Control-plane requests issued while the master was dead waited for the take-over, whose
    // new master stamped their answers: the longest waited at least the reboot.
    for (String ch : List.of("ch1", "ch2")) {
      assertEquals(30, figure(o, "control." + ch + ".accepted").value());
      assertTrue(figure(o, "control." + ch + ".answered_after_takeover").value() > 0, ch);
      double latency = figure(o, "control." + ch + ".latency_max").value();
      assertTrue(latency >= cp.rebootTimeNs(), ch + " latency " + latency);
    }
    // The sender sends at most one packet per wall millisecond: it still ran when the JVM died.
    assertTrue(o.result().faults().get(0).wallAtNanos() < 3000 * 1_000_000L);
    // Both journals hold the controller the pair acknowledged, event for event.
    try (Journals mmh = Journals.open(runDir.resolve("data/node-mmh.mv.db"));
        Journals bmh = Journals.open(runDir.resolve("data/node-bmh.mv.db"))) {
      List<Replay.Comparison> c = Replay.compare(mmh, bmh, Optional.empty());
      assertEquals(1, c.size());
      // Up to the kill both hold the same events; the BMH's goes on with what it served since.
      assertTrue(c.get(0).verdict() == Replay.Verdict.PREFIX || c.get(0).verdict() == Replay.Verdict.IDENTICAL,
          c.toString());
      assertTrue(c.get(0).lengthA() <= c.get(0).lengthB(), "the BMH's journal holds the MMH's: " + c);
    }
    List<ProcessHandle> alive = ProcessHandle.current().children().filter(ProcessHandle::isAlive).toList();
    assertEquals(List.of(), alive.stream().map(p -> p.info().commandLine().orElse("?")).toList());
  }

  @Test
  void shouldStopTheNicStreamForTheRestartWhenTheBaselineTakesOverAfterTheMastersJvmIsKilled() throws Exception {
    Outcome o = runTakeover("mmh-restart", Path.of("target", "multi-jvm", "restart-" + System.currentTimeMillis()));
    ControlPlaneSettings cp = ControlPlaneSettings.create(ConfigFactory.load());
    assertEquals(cp.restartTimeNs(), figure(o, "takeover1.bmh.data_plane_outage").value());
    // CH1 reset: the packets due while the data plane was down were never sent, and the largest
    // gap at the receiver is the restart, less what CH1 had sent past its start before it heard.
    double lost = figure(o, "nic.ch1.lost").value();
    assertTrue(lost > 0, "the baseline loses packets");
    assertEquals(lost, figure(o, "nic.ch1.skipped").value(), "every packet lost is one the reset CH skipped");
    double gap = figure(o, "nic.ch1.interarrival_max").value();
    assertTrue(gap <= cp.restartTimeNs() + 1_000_000 && gap > cp.restartTimeNs() * 0.95,
        "largest gap " + gap + " ns, restart " + cp.restartTimeNs() + " ns");
    assertEquals(1_000_000, figure(o, "nic.ch1.interarrival_min").value());
    List<ProcessHandle> alive = ProcessHandle.current().children().filter(ProcessHandle::isAlive).toList();
    assertEquals(List.of(), alive.stream().map(p -> p.info().commandLine().orElse("?")).toList());
  }

  @Test
  void shouldFailCh1OverWithTheSameModelFiguresWhenItsHostTheMmhAndTheSwitchesRunInSeparateJvms() throws Exception {
    Scenario multi = ScenarioLoader.loadBundled("ch-link-failover", KINDS,
        new ScenarioOptions(Mode.MULTI_JVM, null, null));
    Path runDir = Path.of("target", "multi-jvm", "failover-" + System.currentTimeMillis());
    Outcome o = new ScenarioRunner(KINDS).run(multi, runDir, System.out);
    for (Checked c : o.invariants()) {
      assertTrue(c.verdict().pass(), c.spec().label() + ": " + c.verdict().detail());
    }
    Scenario single = ScenarioLoader.loadBundled("ch-link-failover", KINDS, ScenarioOptions.NONE);
    Outcome one = new ScenarioRunner(KINDS).run(single, runDir.resolve("single"), System.out);
    // CH1's AER driver, its report, the MMH's round and each CH's acknowledgement crossed Artery
    // between five JVMs; in model time that changes nothing.
    String p = "fault1.link-down.ch1-rp.pri.failover.ch1.";
    for (String step : List.of("detection", "determination", "notification", "total", "round_trip")) {
      assertEquals(figure(one, p + step).value(), figure(o, p + step).value(), step);
    }
    assertEquals(figure(one, "sink.ch1.delivered").value(), figure(o, "sink.ch1.delivered").value());
    List<ProcessHandle> alive = ProcessHandle.current().children().filter(ProcessHandle::isAlive).toList();
    assertEquals(List.of(), alive.stream().map(p2 -> p2.info().commandLine().orElse("?")).toList());
  }
  /**
   * A node JVM the scenario does not touch is frozen (SIGSTOP) for 3 s of wall time as its first
   * stretch begins, from outside the run, as a starved machine would: the run waits for it, and
   * not one model-time or count figure changes against the same scenario in one JVM.
   */
  @Test
  void shouldGiveTheSameFiguresAsOneJvmWhenANodeJvmIsFrozenForThreeSecondsUnasked() throws Exception {
    Scenario multi = ScenarioLoader.loadBundled("ch-link-failover", KINDS,
        new ScenarioOptions(Mode.MULTI_JVM, null, null));
    Path runDir = Path.of("target", "multi-jvm", "frozen-" + System.currentTimeMillis());
    Outcome o;
    FrozenNode freeze = new FrozenNode("node-ch2", "  stretch 1/", 3);
    try (freeze) {
      o = new ScenarioRunner(KINDS).run(multi, runDir, freeze.progress());
    }
    assertTrue(freeze.wasFrozen(), "node-ch2 was frozen during the run");
    for (Checked c : o.invariants()) {
      assertTrue(c.verdict().pass(), c.spec().label() + ": " + c.verdict().detail());
    }
    Scenario single = ScenarioLoader.loadBundled("ch-link-failover", KINDS, ScenarioOptions.NONE);
    Outcome one = new ScenarioRunner(KINDS).run(single, runDir.resolve("single"), System.out);
    assertEquals(modelAndCount(one), modelAndCount(o));
    List<ProcessHandle> alive = ProcessHandle.current().children().filter(ProcessHandle::isAlive).toList();
    assertEquals(List.of(), alive.stream().map(p2 -> p2.info().commandLine().orElse("?")).toList());
  }

  /** The figures on the model clock and the counts, by name. */
  private static java.util.Map<String, Double> modelAndCount(Outcome o) {
    java.util.Map<String, Double> out = new java.util.TreeMap<>();
    o.figures().stream().filter(f -> !f.clock().equals("wall")).forEach(f -> out.put(f.name(), f.value()));
    return out;
  }

  @Test
  void shouldFailFortyEightHostsOverWhenTheFullRackRunsOnThreeJvms() throws Exception {
    Scenario s = ScenarioLoader.loadBundled("rack-48", KINDS, ScenarioOptions.NONE);
    assertEquals(Mode.MULTI_JVM, s.mode());
    assertEquals(3, s.topology().topology().nodes().size());
    Path runDir = Path.of("target", "multi-jvm", "rack-48-" + System.currentTimeMillis());
    Outcome o = new ScenarioRunner(KINDS).run(s, runDir, System.out);

    for (Checked c : o.invariants()) {
      assertTrue(c.verdict().pass(), c.spec().label() + ": " + c.verdict().detail());
    }
    assertEquals(48, figure(o, "scale.compute_hosts").value());
    String p = "fault1.link-down.ch1-rp.pri.failover.ch1.";
    // One notification per CH, one after the other: 48 of them take several times Table 2's 8.
    assertTrue(figure(o, p + "notification").value() > 48 * 8_500, "notification " + figure(o, p + "notification"));
    assertEquals(200, figure(o, "sink.ch41.delivered").value(), "CH40 beside the BMH into CH41");
    assertTrue(figure(o, "scale.tlps_forwarded").value() > 0);
    // Each node JVM answered with its reading (else there is no figure); its size is a measurement
    // of three JVMs' collectors (clock wall), which rack bench startup reports, not a test's.
    assertTrue(Double.isFinite(figure(o, "scale.heap_per_component").value()), "each node JVM measured its heap");
  }
}
