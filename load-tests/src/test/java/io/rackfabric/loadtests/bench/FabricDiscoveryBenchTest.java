package io.rackfabric.loadtests.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.scenario.ScenarioKinds;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Discovery over the fabric: the same reads as the structural walk, and a model time of its own. */
class FabricDiscoveryBenchTest {

  @TempDir Path dir;

  @Test
  void shouldLoadEveryRackAsAScenarioWhenTheMultiRackHasTwoRacks() throws Exception {
    List<String[]> racks = FabricDiscoveryBench.standardRacks(2);
    assertEquals(List.of("ladon-testbed", "ladon-48", "multirack-2x48"), racks.stream().map(r -> r[0]).toList());
    for (String[] r : racks) {
      Scenario s = ScenarioLoader.parse(FabricDiscoveryBench.scenario(r[0], r[1]), r[0] + ".conf", dir,
          ScenarioKinds.standard(), ScenarioOptions.NONE);
      assertTrue(s.traffic().isEmpty(), r[0] + ": nothing but the walk");
    }
  }

  @Test
  void shouldReadWhatTheStructuralWalkReadsWhenTheTestbedIsDiscoveredOverTheFabric() throws Exception {
    String[] testbed = FabricDiscoveryBench.standardRacks(1).get(0);
    FabricDiscoveryBench.Result r = FabricDiscoveryBench.run(testbed[0], testbed[1], dir,
        new PrintStream(OutputStream.nullOutputStream()));
    assertTrue(r.passed(), r.detail());
    DiscoveryBench.Result structural = DiscoveryBench.run(StartupBench.standardRacks(1).subList(0, 1), 1).get(0);
    assertEquals(structural.readRequests(), r.readRequests(), "the same walk, carried by the fabric");
    assertEquals(structural.devices(), r.devices());
    assertTrue(r.discoveryNs() > 0, "a walk over links takes model time: " + r.discoveryNs());
  }
}
