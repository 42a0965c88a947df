package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.ScenarioRunnerTest.figure;
import static io.rackfabric.loadtests.scenario.ScenarioRunnerTest.quiet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.cluster.node.ControlPlaneBootPlan;
import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.KindCatalog;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Checked;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import io.rackfabric.loadtests.scenario.fault.RogueDmaFault;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.PagePermission;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundled iommu-isolation scenario: in a rack with a management host the hosts deny each
 * other by default, the master's controller opens what the traffic covers (journaled, applied by
 * the MH), and a rogue CH's writes and reads are all blocked and counted, per requester, while the
 * traffic arrives untouched.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class IommuIsolationScenarioTest {

  static final KindCatalog<FaultType, InvariantType, FigureType> KINDS = ScenarioKinds.standard();

  @TempDir Path dir;

  @Test
  void shouldBlockAndCountEveryRogueAccessWhileTheTrafficArrivesWhenARogueHostReachesClosedPages() throws Exception {
    Scenario s = ScenarioLoader.loadBundled("iommu-isolation", KINDS, ScenarioOptions.NONE);
    // The master's controller at the end of the run, read while the rack still runs.
    AtomicReference<Controller.CurrentState> controller = new AtomicReference<>();
    RackAttachment readController = new RackAttachment() {
      @Override
      public void attach(RunningRack rack) {}

      @Override
      public void detach(RunningRack rack) throws Exception {
        var cp = Asks.find(rack.system(), ComponentKeys.controlPlaneHost(rack.topology().controlPlane().master()),
            Duration.ofSeconds(10));
        controller.set(Asks.ask(rack.system(), cp, ControlPlaneHost.GetControllerState::new, Duration.ofSeconds(10)));
      }
    };
    Outcome o = new ScenarioRunner(KINDS, List.of(readController)).run(s, dir.resolve("run"), quiet());
    for (Checked c : o.invariants()) {
      assertTrue(c.verdict().pass(), c.spec().label() + ": " + c.verdict().detail());
    }
    long writes = 0;
    long reads = 0;
    String victim = null;
    String rogue = null;
    for (FaultSpec f : s.faults()) {
      RogueDmaFault.Aim a = RogueDmaFault.aim(f, s.topology().topology());
      writes += a.writes();
      reads += a.reads();
      victim = a.victim();
      rogue = a.rogue();
    }
    assertTrue(writes > 0 && reads > 0, "the scenario's rogue both writes and reads");
    String p = "iommu." + victim + ".blocked." + rogue;
    assertEquals(writes + reads, figure(o, p).value());
    assertEquals(writes, figure(o, p + ".writes").value());
    assertEquals(reads, figure(o, p + ".reads").value());
    assertEquals(3, o.figures().stream().filter(f -> f.name().startsWith("iommu.")).count(),
        "nothing but the rogue was blocked: " + o.figures());
    Map<String, Integer> ids = new HashMap<>();
    ControlPlaneBootPlan.hostsByRequester(s.topology().topology()).forEach((id, host) -> ids.put(host, id));
    for (var t : o.result().traffic()) {
      assertEquals(t.spec().count(), t.sent(), t.spec().name() + " sent all");
      // The traffic's pages were opened through the journaled controller, none more for the rogue.
      for (long page = t.spec().sinkRegion().base() & ~0xFFFL; page <= t.spec().sinkRegion().limit(); page += 0x1000) {
        assertEquals(Optional.of(PagePermission.READ_WRITE),
            controller.get().state().permission(t.spec().sink(), ids.get(t.spec().from()), page),
            t.spec().name() + " page " + Long.toHexString(page));
      }
    }
    RogueDmaFault.Aim aim = RogueDmaFault.aim(s.faults().get(0), s.topology().topology());
    assertEquals(Optional.empty(), controller.get().state().permission(aim.victim(), ids.get(aim.rogue()),
        aim.victimAddress() & ~0xFFFL), "nothing opened to the rogue");
  }
}
