package io.rackfabric.host.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class MessagingSettingsTest {

  private static MessagingSettings read(String overrides) {
    return MessagingSettings.create(ConfigFactory.parseString(overrides)
        .withFallback(ConfigFactory.defaultReference()));
  }

  @Test
  void shouldReadTheDocumentedDefaultsWhenNothingIsSet() {
    MessagingSettings s = read("");
    assertEquals(1L << 30, s.regionOffset());
    assertEquals(8, s.buffers());
    assertEquals(MessagingSettings.Delivery.DOORBELL, s.delivery());
    assertEquals(2_000, s.interruptLatencyNs());
    assertEquals(1_000, s.pollLatencyNs());
    assertEquals(2_000, s.deliveryLatencyNs(), "doorbell delivery adds the interrupt latency");
    assertEquals(100_000, s.retransmitTimeoutNs());
    assertEquals(20_000, s.retransmitCheckNs());
    assertEquals(5_000, s.readRetryNs());
    assertEquals(50_000, s.completionTimeoutNs());
    assertEquals(Duration.ofMillis(20), s.idleGrace());
  }

  @Test
  void shouldAddThePollLatencyWhenPolled() {
    MessagingSettings s = read("rackfabric.host.messaging { delivery = polled, poll-latency = 8500ns }");
    assertEquals(MessagingSettings.Delivery.POLLED, s.delivery());
    assertEquals(8_500, s.deliveryLatencyNs());
  }

  @Test
  void shouldRejectEveryBadValueAtOnceNamingEach() {
    String e = assertThrows(IllegalArgumentException.class, () -> read(
        "rackfabric.host.messaging { region-offset = 100, buffers = 0, delivery = carrier-pigeon\n"
            + "retransmit-timeout = 10us, retransmit-check = 20us, idle-grace = 0s\n"
            + "interrupt-latency = -1us }")).getMessage();
    for (String expected : new String[] {"region-offset=100", "buffers=0 not in [1,248]",
        "delivery=carrier-pigeon not in {doorbell, polled}",
        "retransmit-check=20000ns must not exceed retransmit-timeout=10000ns",
        "idle-grace=PT0S must be positive", "interrupt-latency=-1000ns is negative"}) {
      assertTrue(e.contains(expected), "missing " + expected + " in: " + e);
    }
  }
}
