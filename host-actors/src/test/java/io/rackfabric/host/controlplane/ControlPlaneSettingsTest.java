package io.rackfabric.host.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ControlPlaneSettingsTest {

  private static Config with(String overrides) {
    return ConfigFactory.parseString(overrides).withFallback(ConfigFactory.load());
  }

  @Test
  void shouldReadThePapersFiguresWhenNothingIsOverridden() {
    ControlPlaneSettings s = ControlPlaneSettings.create(ConfigFactory.load());
    assertEquals(100_000_000L, s.heartbeatIntervalNs());
    assertEquals(2.5, s.missedHeartbeats());
    assertEquals(250_000_000L, s.suspicionAfterNs());
    assertEquals(1_000_000L, s.portReassignmentNs());
    assertEquals(38_100_000_000L, s.rebootTimeNs());
    assertEquals(85_000_000_000L, s.restartTimeNs());
    assertEquals(30_000L, s.linkLatencyNs());
    assertEquals(Takeover.LADON, s.takeover());
    assertEquals(64, s.maxInFlight());
    assertEquals(1024, s.takeoverQueue());
    assertEquals(1.0, s.tdf());
    assertEquals(Duration.ofSeconds(5), s.replicationTimeout());
    assertEquals(60_000_000_000L, s.peerAnswerTimeoutNs(), "more than the reboot: a master taking over answers late");
    assertEquals(10.0, s.linkGbps());
    assertEquals(16_000L, s.serializationNs(20_000), "a chunk of 20,000 bytes on the 10 GbE link");
    assertEquals(32_000L, s.serializationNs(40_000), "twice the bytes, twice the time");
    assertEquals(1L, s.serializationNs(1), "rounded up");
    assertTrue(s.keepFabricDatabase(), "the fabric manager's database in the controller's state by default");
  }

  @Test
  void shouldTakeOverridesAndTheFabricsDilationWhenGiven() {
    ControlPlaneSettings s = ControlPlaneSettings.create(with("""
        rackfabric.fabric.time-dilation = 3
        rackfabric.host.controlplane { heartbeat-interval = 20ms, takeover = restart, reboot-time = 2s }
        """));
    assertEquals(20_000_000L, s.heartbeatIntervalNs());
    assertEquals(Takeover.RESTART, s.takeover());
    assertEquals(2_000_000_000L, s.rebootTimeNs());
    assertEquals(Duration.ofMillis(60), s.wall(s.heartbeatIntervalNs()));
    assertEquals(1_000, s.rejoinChunkEvents(), "the default");
    assertFalse(ControlPlaneSettings.create(with("rackfabric.host.controlplane.keep-fabric-database = off"))
        .keepFabricDatabase(), "a user turns it off");
  }

  @Test
  void shouldNameEveryBadValueWhenRejected() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ControlPlaneSettings.create(with("""
            rackfabric.host.controlplane {
              heartbeat-interval = 0s, missed-heartbeats = 0.5, reboot-time = -1s
              max-in-flight = 5000, takeover-queue = -1, peer-answer-timeout = 0s
              rejoin-write-events = 0, rejoin-chunk-events = 5000, replication-link-gbps = 0
            }
            """)));
    String m = e.getMessage();
    for (String part : new String[] {"heartbeat-interval=0ns", "missed-heartbeats=0.5",
        "reboot-time=-1000000000ns", "max-in-flight=5000", "takeover-queue=-1",
        "peer-answer-timeout=0ns must be positive", "rejoin-write-events=0 must be at least 1",
        "rejoin-chunk-events=5000 not in [1,2000] (a chunk is one message, and Artery's frame is 256 KiB)",
        "replication-link-gbps=0.0 must be positive"}) {
      assertTrue(m.contains(part), m);
    }
    e = assertThrows(IllegalArgumentException.class, () -> ControlPlaneSettings.create(
        with("rackfabric.host.controlplane.takeover = reboot")));
    assertTrue(e.getMessage().contains("takeover=reboot not in {ladon, restart}"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> ControlPlaneSettings.create(
        with("rackfabric.host.controlplane.port-reassignment = soon")));
    assertTrue(e.getMessage().contains("port-reassignment=soon"), e.getMessage());
  }
}
