package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.ScenarioRunnerTest.figure;
import static io.rackfabric.loadtests.scenario.ScenarioRunnerTest.quiet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.scenario.language.KindCatalog;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
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

/** The 1,000-host fabric of issue 6 in one JVM: it starts, carries traffic between racks, survives its fault. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ScaleScenarioTest {

  static final KindCatalog<FaultType, InvariantType, FigureType> KINDS = ScenarioKinds.standard();

  @TempDir Path dir;

  @Test
  void shouldCarryTrafficBetweenRacksAndSurviveTheCableWhenAThousandHostsRunInOneJvm() throws Exception {
    Scenario s = ScenarioLoader.loadBundled("multirack-1000", KINDS, ScenarioOptions.NONE);
    Outcome o = new ScenarioRunner(KINDS).run(s, dir.resolve("run"), quiet());

    for (Checked c : o.invariants()) {
      assertTrue(c.verdict().pass(), c.spec().label() + ": " + c.verdict().detail());
    }
    assertEquals(1008, figure(o, "scale.compute_hosts").value());
    // Rack 21's MMH into rack 1 crosses the spine and lands, every write once.
    assertEquals(figure(o, "traffic.r21-to-r1.sent").value(), figure(o, "sink.r1-ch21.delivered").value());
    assertTrue(figure(o, "traffic.r21-to-r1.sent").value() > 0);
    assertTrue(figure(o, "sink.r1-ch3.lost").value() > 0, "writes across the cable after it went down are lost");
    double components = figure(o, "scale.components").value();
    assertEquals(components, figure(o, "scale.components.switch_chip").value()
        + figure(o, "scale.components.switch_port").value() + figure(o, "scale.components.root_complex").value()
        + figure(o, "scale.components.device").value());
    assertTrue(figure(o, "scale.heap_per_component").value() > 0, "the rack holds heap");
    // Every write crosses at least three switch ports (its root port, an NTB port, the far root port).
    assertTrue(figure(o, "scale.tlps_forwarded").value() >= 3 * figure(o, "writes_delivered").value());
  }
}
