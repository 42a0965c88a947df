package io.rackfabric.host.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.host.failover.NotificationMode;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** rackfabric.host read from reference.conf, and bad values named by key. */
class HostSettingsTest {

  private static Config with(String overrides) {
    return ConfigFactory.parseString(overrides).withFallback(ConfigFactory.load());
  }

  @Test
  void shouldReadTheDocumentedDefaultsWhenNothingIsOverridden() {
    HostSettings s = HostSettings.create(ConfigFactory.load());

    assertEquals(2_200, s.aerInterruptLatencyNs());
    assertEquals(7_700, s.pollLatencyNs());
    assertEquals(100, s.spinLatencyNs());
    assertEquals(1_000, s.routeUpdateLatencyNs());
    assertEquals(0, s.verdictLatencyNs());
    assertEquals(NotificationMode.UNICAST, s.notification());
    assertEquals(Duration.ofMillis(200), s.ackGrace());
    assertEquals(20_000, s.ackTimeoutNs());
    assertEquals(5, s.maxResends());
  }

  @Test
  void shouldTakeEveryKeyWhenOverridden() {
    HostSettings s = HostSettings.create(with("""
        rackfabric.host {
          aer.interrupt-latency = 3us
          mailbox { poll-latency = 500ns, spin-latency = 7ns }
          route-update-latency = 2500ns
          verdict-latency = 1ms
          notification = multicast
          failover { ack-grace = 1.5s, ack-timeout = 40us, max-resends = 0 }
        }
        """));

    assertEquals(new HostSettings(3_000, 500, 7, 2_500, 1_000_000, NotificationMode.MULTICAST,
        Duration.ofMillis(1_500), 40_000, 0), s);
  }

  @Test
  void shouldAcceptTheModeInAnyCaseWhenGiven() {
    assertEquals(NotificationMode.MULTICAST,
        HostSettings.create(with("rackfabric.host.notification = MultiCast")).notification());
    assertEquals(NotificationMode.UNICAST,
        HostSettings.create(with("rackfabric.host.notification = UNICAST")).notification());
  }

  @Test
  void shouldNameTheKeyWhenAValueIsOutOfRange() {
    String[][] cases = {
        {"aer.interrupt-latency", "-1us", "aer.interrupt-latency=-1000ns is negative"},
        {"mailbox.poll-latency", "-7ns", "mailbox.poll-latency=-7ns is negative"},
        {"mailbox.spin-latency", "-1ns", "mailbox.spin-latency=-1ns is negative"},
        {"route-update-latency", "-2us", "route-update-latency=-2000ns is negative"},
        {"verdict-latency", "-5ns", "verdict-latency=-5ns is negative"},
        {"failover.ack-timeout", "-1us", "failover.ack-timeout=-1000ns is negative"},
        {"failover.ack-grace", "0ms", "failover.ack-grace=0ns is not positive"},
        {"failover.ack-grace", "-3ms", "failover.ack-grace=-3000000ns is not positive"},
        {"failover.max-resends", "-1", "failover.max-resends=-1 is negative"},
    };
    for (String[] c : cases) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> HostSettings.create(with("rackfabric.host." + c[0] + " = " + c[1])), c[0]);
      assertEquals("rackfabric.host: " + c[2], e.getMessage());
    }
  }

  @Test
  void shouldNameEveryBadKeyWhenSeveralAreNegative() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HostSettings.create(
        with("rackfabric.host { mailbox.poll-latency = -1ns, verdict-latency = -2ns }")));
    assertEquals("rackfabric.host: mailbox.poll-latency=-1ns is negative; verdict-latency=-2ns is negative",
        e.getMessage());
  }

  @Test
  void shouldNameTheModeWhenUnknown() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> HostSettings.create(with("rackfabric.host.notification = broadcast")));
    assertEquals("rackfabric.host: notification=broadcast not in {unicast, multicast}", e.getMessage());
  }

  @Test
  void shouldNameTheKeyWhenADurationIsNotOne() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> HostSettings.create(with("rackfabric.host.mailbox.poll-latency = soon")));
    assertTrue(e.getMessage().contains("poll-latency"), e.getMessage());
  }

  @Test
  void shouldRefuseAMissingValueWhenBuiltDirectly() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new HostSettings(0, 0, 0, 0, 0, null, Duration.ofMillis(1), 0, 0));
    assertEquals("rackfabric.host: notification is missing", e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> new HostSettings(0, 0, 0, 0, 0, NotificationMode.UNICAST, null, 0, 0));
    assertEquals("rackfabric.host: failover.ack-grace is missing", e.getMessage());
  }
}
