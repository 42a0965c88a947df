package io.rackfabric.host.device.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import org.junit.jupiter.api.Test;

class GpuDriverSettingsTest {

  @Test
  void shouldReadTheDocumentedDefaultWhenNothingIsSet() {
    assertEquals(new GpuDriverSettings(100_000_000), GpuDriverSettings.create(ConfigFactory.load()));
  }

  @Test
  void shouldTakeTheWatchdogWhenOverridden() {
    assertEquals(2_000_000, GpuDriverSettings.create(ConfigFactory.parseString(
        "rackfabric.host.gpu-driver.msi-watchdog = 2ms").withFallback(ConfigFactory.load())).msiWatchdogNs());
  }

  @Test
  void shouldNameTheWatchdogWhenItIsNotPositive() {
    String m = assertThrows(IllegalArgumentException.class, () -> GpuDriverSettings.create(ConfigFactory.parseString(
        "rackfabric.host.gpu-driver.msi-watchdog = 0s").withFallback(ConfigFactory.load()))).getMessage();
    assertTrue(m.contains("msi-watchdog=0ns must be positive"), m);
  }
}
