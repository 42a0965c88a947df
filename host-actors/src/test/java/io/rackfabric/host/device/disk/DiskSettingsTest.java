package io.rackfabric.host.device.disk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import org.junit.jupiter.api.Test;

class DiskSettingsTest {

  @Test
  void shouldReadTheDocumentedDefaultsWhenNothingIsSet() {
    assertEquals(new DiskSettings(10_000, 10_000, 512, 32, (256L << 30) / 512, 256, 64),
        DiskSettings.create(ConfigFactory.load()));
  }

  @Test
  void shouldNameEveryBadValueWhenSeveralAreWrong() {
    String m = assertThrows(IllegalArgumentException.class,
        () -> new DiskSettings(-1, -2, 300, 0, 0, 0, 0)).getMessage();
    assertTrue(m.contains("read-latency=-1ns is negative"), m);
    assertTrue(m.contains("write-latency=-2ns is negative"), m);
    assertTrue(m.contains("max-read-request=300 not in {128,256,512,1024,2048,4096}"), m);
    assertTrue(m.contains("max-outstanding-reads=0 not in [1,256]"), m);
    assertTrue(m.contains("capacity=0 blocks"), m);
    assertTrue(m.contains("max-blocks-per-command=0 not in [1,65535]"), m);
    assertTrue(m.contains("max-commands=0 not in [1,65536]"), m);
  }

  @Test
  void shouldRefuseACapacityOfPartBlocksWhenConfigured() {
    String m = assertThrows(IllegalArgumentException.class, () -> DiskSettings.create(ConfigFactory.parseString(
        "rackfabric.host.disk.capacity = 1000").withFallback(ConfigFactory.load()))).getMessage();
    assertTrue(m.contains("capacity=1000 bytes is not a multiple of 512"), m);
  }
}
