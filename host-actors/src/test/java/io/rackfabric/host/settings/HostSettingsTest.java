package io.rackfabric.host.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.host.failover.NotificationMode;
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
        }
        """));

    assertEquals(new HostSettings(3_000, 500, 7, 2_500, 1_000_000, NotificationMode.MULTICAST), s);
  }

  @Test
  void shouldAcceptTheModeInAnyCaseWhenGiven() {
    assertEquals(NotificationMode.MULTICAST,
        HostSettings.create(with("rackfabric.host.notification = MultiCast")).notification());
    assertEquals(NotificationMode.UNICAST,
        HostSettings.create(with("rackfabric.host.notification = UNICAST")).notification());
  }

  @Test
  void shouldNameTheKeyWhenADurationIsNegative() {
    String[][] cases = {
        {"aer.interrupt-latency", "-1us", "aer.interrupt-latency=-1000ns is negative"},
        {"mailbox.poll-latency", "-7ns", "mailbox.poll-latency=-7ns is negative"},
        {"mailbox.spin-latency", "-1ns", "mailbox.spin-latency=-1ns is negative"},
        {"route-update-latency", "-2us", "route-update-latency=-2000ns is negative"},
        {"verdict-latency", "-5ns", "verdict-latency=-5ns is negative"},
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
  void shouldRefuseAMissingModeWhenBuiltDirectly() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new HostSettings(0, 0, 0, 0, 0, null));
    assertEquals("rackfabric.host: notification is missing", e.getMessage());
  }
}
