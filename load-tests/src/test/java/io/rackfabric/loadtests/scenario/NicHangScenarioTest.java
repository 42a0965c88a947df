package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Checked;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundled nic-hang-ladon scenario and its GM baseline in one JVM: the rack's NIC hangs while
 * ch1 and ch2 stream through it; FTGM loses and duplicates nothing, GM loses what the NIC held.
 */
class NicHangScenarioTest {

  @TempDir Path dir;

  Outcome run(String name) throws Exception {
    Scenario s = ScenarioLoader.loadBundled(name, ScenarioKinds.standard(), ScenarioOptions.NONE);
    return new ScenarioRunner(ScenarioKinds.standard()).run(s, dir.resolve(name),
        new PrintStream(OutputStream.nullOutputStream()));
  }

  static double figure(Outcome o, String name) {
    return NicStreamScenarioTest.figure(o, name);
  }

  @Test
  void shouldDeliverEveryPacketOnceInOrderAndRecoverTheNicWhenItsFirmwareHangsUnderFtgm() throws Exception {
    Outcome o = run("nic-hang-ladon");

    for (Checked c : o.invariants()) {
      assertTrue(c.verdict().pass(), c.spec().label() + ": " + c.verdict().detail());
    }
    assertEquals(2, figure(o, "nic-recovery.nic.open_ports"));
    double detection = figure(o, "nic-recovery.nic.detection");
    double daemon = figure(o, "nic-recovery.nic.daemon");
    double port1 = figure(o, "nic-recovery.nic.port1");
    double port2 = figure(o, "nic-recovery.nic.port2");
    assertTrue(detection > 0 && detection < 1e6, "detection " + detection + " ns: within about a watchdog interval");
    assertEquals(detection + daemon + port1 + port2, figure(o, "nic-recovery.nic.total"), 1.0);
    for (String ch : new String[] {"ch1", "ch2"}) {
      assertEquals(300, figure(o, "nic." + ch + ".received"));
      assertEquals(0, figure(o, "nic." + ch + ".lost") + figure(o, "nic." + ch + ".duplicates"));
      // the pause the stream's application saw: at least the daemon's part of the recovery
      assertTrue(figure(o, "nic." + ch + ".interarrival_max") >= daemon,
          ch + " max gap " + figure(o, "nic." + ch + ".interarrival_max"));
    }
    // the card serves each reopened ring at its model time: nothing it sends is stamped in the past
    assertEquals(0, figure(o, "sync.stragglers"), "events handled behind a component's clock");
  }

  @Test
  void shouldLoseWhatTheNicHadNotSentWhenTheGmBaselineOnlyReloadsIt() throws Exception {
    Outcome o = run("nic-hang-ladon-gm");

    for (Checked c : o.invariants()) {
      assertTrue(c.verdict().pass(), c.spec().label() + ": " + c.verdict().detail());
    }
    double lost = figure(o, "nic.ch1.lost") + figure(o, "nic.ch2.lost");
    assertTrue(lost >= 1, "GM loses the packets whose descriptors the hung NIC held");
    assertEquals(0, figure(o, "nic.ch1.duplicates") + figure(o, "nic.ch2.duplicates"));
    assertEquals(600 - lost, figure(o, "nic.ch1.received") + figure(o, "nic.ch2.received"));
    assertEquals(0, figure(o, "sync.stragglers"), "events handled behind a component's clock");
  }
}
