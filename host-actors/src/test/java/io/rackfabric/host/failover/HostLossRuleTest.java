package io.rackfabric.host.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.failover.HostLossRule.ChPort;
import io.rackfabric.host.failover.HostLossRule.Lost;
import io.rackfabric.host.memory.Plane;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HostLossRuleTest {

  static final Map<String, ChPort> PORTS = Map.of(
      "04:01.0", new ChPort(1, "ch1", Plane.PRIMARY), "06:01.0", new ChPort(1, "ch1", Plane.SECONDARY),
      "04:02.0", new ChPort(2, "ch2", Plane.PRIMARY), "06:02.0", new ChPort(2, "ch2", Plane.SECONDARY));

  @Test
  void shouldTakeAHostAsGoneWhenBothOfItsPlanesPortsFailed() {
    HostLossRule rule = new HostLossRule(PORTS, 3_000);
    assertEquals(Optional.empty(), rule.fatal("04:01.0", 100), "one plane left: the CH reports itself");
    assertEquals(Optional.of(new Lost(1, "ch1", 3_107)), rule.fatal("06:01.0", 107),
        "the second plane's error, handled after the interrupt latency");
  }

  @Test
  void shouldDecideOncePerHostAndKeepHostsApart() {
    HostLossRule rule = new HostLossRule(PORTS, 0);
    rule.fatal("04:01.0", 1);
    rule.fatal("04:02.0", 2);
    assertEquals(Optional.empty(), rule.fatal("04:01.0", 3), "the same plane again is still one plane");
    assertTrue(rule.fatal("06:01.0", 4).isPresent());
    assertEquals(Optional.empty(), rule.fatal("06:01.0", 5), "decided once");
    assertEquals(Optional.empty(), rule.fatal("04:01.0", 6), "decided once");
    assertEquals(Optional.of(new Lost(2, "ch2", 7)), rule.fatal("06:02.0", 7));
  }

  @Test
  void shouldIgnorePortsThatAreNoComputeHostsCable() {
    HostLossRule rule = new HostLossRule(PORTS, 0);
    assertFalse(rule.watches("02:00.0"));
    assertEquals(Optional.empty(), rule.fatal("02:00.0", 1));
  }
}
