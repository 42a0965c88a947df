package io.rackfabric.host.ftgm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FaultSpecTest {

  static String error(Runnable r) {
    return assertThrows(IllegalArgumentException.class, r::run).getMessage();
  }

  @Test
  void shouldRejectAnUnknownNicWhenCreated() {
    assertEquals("nic=nic9 is not a NIC of the rack [nic]",
        error(() -> FaultSpec.create("nic9", Map.of(), 1, 1, Set.of("nic"))));
  }

  @Test
  void shouldRejectAnUnknownCategoryWhenCreated() {
    assertEquals("category=cosmic-ray not in {interface-hang,messages-corrupted,remote-interface-hang,"
        + "mcp-restart,no-impact}", error(() -> FaultSpec.create("nic", Map.of("cosmic-ray", 0.1), 1, 1,
        Set.of("nic"))));
  }

  @Test
  void shouldRejectARateOutsideZeroToOneWhenCreated() {
    assertEquals("rate interface-hang=1.5 not in [0,1]",
        error(() -> FaultSpec.create("nic", Map.of("interface-hang", 1.5), 1, 1, Set.of("nic"))));
    assertEquals("rate mcp-restart=-0.1 not in [0,1]",
        error(() -> FaultSpec.create("nic", Map.of("mcp-restart", -0.1), 1, 1, Set.of("nic"))));
  }

  @Test
  void shouldRejectRatesSummingOverOneWhenCreated() {
    String m = error(() -> FaultSpec.create("nic", Map.of("interface-hang", 0.7, "mcp-restart", 0.6), 1, 1,
        Set.of("nic")));
    assertEquals(true, m.startsWith("rates sum=1.2"), m);
  }

  @Test
  void shouldRejectNoFaultsWhenCreated() {
    assertEquals("faults=0 must be at least 1", error(() -> FaultSpec.create("nic", Map.of(), 0, 1, Set.of("nic"))));
  }
}
