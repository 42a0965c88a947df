package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyLoader;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.loadtests.scenario.language.LoanStep;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LoanWindowsTest {

  private static final long GIB = 1L << 30;
  private static final long TIB = 1L << 40;

  private static List<LoanStep> steps(String scenario) throws Exception {
    return ScenarioLoader.loadBundled(scenario, ScenarioRunnerTest.KINDS, ScenarioOptions.NONE).loans();
  }

  @Test
  void shouldGateEveryBarOfTheBorrowedDeviceOnBothPlanesWhenTheRackIsLadon() throws Exception {
    Topology rack = TopologyLoader.load("ladon-lending");
    Map<String, Map<String, List<AddressRange>>> windows = LoanWindows.of(rack, steps("lending-hot-plug"));
    // Where rack lend puts gpu1's BAR0 and BAR1 for ch2 (PMS1), and the same through PMS2.
    assertEquals(Map.of("ch2", Map.of("gpu1", List.of(
        AddressRange.ofSize(72 * GIB, 16 * 1024), AddressRange.ofSize(73 * GIB, 256L << 20),
        AddressRange.ofSize(TIB + 72 * GIB, 16 * 1024), AddressRange.ofSize(TIB + 73 * GIB, 256L << 20)))),
        windows);
  }

  @Test
  void shouldGateNothingWhenTheScenarioBorrowsNothing() throws Exception {
    Topology rack = TopologyLoader.load("ladon-lending");
    List<LoanStep> offerOnly = steps("lending-hot-plug").stream()
        .filter(s -> s.kind() != LoanStep.Kind.BORROW).toList();
    assertTrue(LoanWindows.of(rack, offerOnly).isEmpty());
  }

  @Test
  void shouldGateNothingForABorrowTheTopologyCannotCarryWhenTheLenderBorrowsItsOwnDevice() throws Exception {
    Topology rack = TopologyLoader.load("ladon-lending");
    // lending-controller also has CH1 borrowing its own GPU (refused by the controller): no window.
    Map<String, Map<String, List<AddressRange>>> windows = LoanWindows.of(rack, steps("lending-controller"));
    assertEquals(List.of("ch2"), List.copyOf(windows.keySet()));
  }
}
