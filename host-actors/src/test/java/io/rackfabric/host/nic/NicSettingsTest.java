package io.rackfabric.host.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import org.junit.jupiter.api.Test;

class NicSettingsTest {

  @Test
  void shouldReadThePapersTestbedWhenDefaultsAreUsed() {
    NicSettings s = NicSettings.create(ConfigFactory.load());
    assertEquals(10_000_000_000L, s.linkRateBitsPerSecond());
    assertEquals(16, s.descriptorSize());
    assertEquals(64, s.senderPayload());
    assertEquals(1_000_000, s.senderIntervalNs());
    assertEquals(16 * 1024, s.vfBarSize());
  }

  @Test
  void shouldRejectBadValuesNamingEach() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NicSettings.create(
        ConfigFactory.parseString("rackfabric.host.nic { descriptor-size = 12, vf-count = 0, propagation = -1ns,"
            + " sender.max-outstanding = 64 }").withFallback(ConfigFactory.load())));
    assertTrue(e.getMessage().startsWith("rackfabric.host.nic: "), e.getMessage());
    assertTrue(e.getMessage().contains("descriptor-size=12 must be a multiple of 16 in [16,256]"), e.getMessage());
    assertTrue(e.getMessage().contains("vf-count=0 not in [1,64]"), e.getMessage());
    assertTrue(e.getMessage().contains("propagation=-1ns is negative"), e.getMessage());
    assertTrue(e.getMessage().contains("sender.max-outstanding=64 not in [1,ring-size-1=63]"), e.getMessage());
    assertEquals("rackfabric.host.nic: link-rate-mbps=0 not in [1,10000000]",
        assertThrows(IllegalArgumentException.class, () -> NicSettings.create(
            ConfigFactory.parseString("rackfabric.host.nic.link-rate-mbps = 0").withFallback(ConfigFactory.load())))
            .getMessage());
  }
}
