package io.rackfabric.fabric.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import org.junit.jupiter.api.Test;

class FabricSettingsTest {

  private static FabricSettings with(String text) {
    return FabricSettings.create(ConfigFactory.parseString(text).withFallback(ConfigFactory.load()));
  }

  @Test
  void shouldTakeTheNtbsLatencyInsteadOfTheSwitchsForEachNtbPassed() {
    FabricSettings s = with("rackfabric.fabric { switch-latency = 150ns, ntb-latency = 350ns }");
    assertEquals(150, s.crossingNs(false, false));
    assertEquals(350, s.crossingNs(true, false));
    assertEquals(350, s.crossingNs(false, true));
    assertEquals(700, s.crossingNs(true, true), "host to host through two NTB ports of one chip");
    assertEquals(150, s.leastCrossingNs());
    assertEquals(150, s.siblingLookaheadNs(false, false));
    assertEquals(150, s.siblingLookaheadNs(true, false));
  }

  @Test
  void shouldKeepTheLookaheadAtTheLeastCrossingWhenTheNtbIsFasterThanTheSwitch() {
    FabricSettings s = with("rackfabric.fabric { switch-latency = 150ns, ntb-latency = 100ns }");
    assertEquals(100, s.crossingNs(true, false));
    assertEquals(100, s.leastCrossingNs());
    assertEquals(150, s.siblingLookaheadNs(false, false), "between two bridges the switch's, as before");
    assertEquals(100, s.siblingLookaheadNs(false, true));
    assertEquals(100, s.siblingLookaheadNs(true, true));
  }

  @Test
  void shouldRefuseANegativeNtbLatencyNamingIt() {
    var e = assertThrows(IllegalArgumentException.class, () -> with("rackfabric.fabric.ntb-latency = -1ns"));
    assertTrue(e.getMessage().contains("ntb-latency"), e.getMessage());
  }
}
