package io.rackfabric.host.device.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import org.junit.jupiter.api.Test;

class GpuSettingsTest {

  @Test
  void shouldReadTheDocumentedDefaultsWhenNothingIsSet() {
    assertEquals(new GpuSettings(100, 512, 32, 64 << 20), GpuSettings.create(ConfigFactory.load()));
  }

  @Test
  void shouldNameEveryBadValueWhenSeveralAreWrong() {
    String m = assertThrows(IllegalArgumentException.class, () -> new GpuSettings(-1, 300, 0, 0)).getMessage();
    assertTrue(m.contains("setup-time=-1ns is negative"), m);
    assertTrue(m.contains("max-read-request=300 not in {128,256,512,1024,2048,4096}"), m);
    assertTrue(m.contains("max-outstanding-reads=0 not in [1,256]"), m);
    assertTrue(m.contains("max-copy-bytes=0 must be positive"), m);
  }

  @Test
  void shouldRefuseACopyLimitAboveASignedLengthWhenConfigured() {
    String m = assertThrows(IllegalArgumentException.class, () -> GpuSettings.create(ConfigFactory.parseString(
        "rackfabric.host.gpu.max-copy-bytes = 4GiB").withFallback(ConfigFactory.load()))).getMessage();
    assertTrue(m.contains("max-copy-bytes=4294967296 above 2147483647"), m);
  }
}
