package io.rackfabric.fabric.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.typesafe.config.ConfigFactory;
import org.junit.jupiter.api.Test;

class ManagementSettingsTest {

  @Test
  void shouldBeOffWithItsDefaultsWhenNothingIsSet() {
    ManagementSettings s = ManagementSettings.create(ConfigFactory.load());
    assertFalse(s.enabled());
    assertEquals("", s.fabricManager());
    assertEquals(10_000, s.discoverAtNs());
    assertEquals(8, s.window());
  }

  @Test
  void shouldNameTheValueWhenTheWindowIsOutOfRange() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new ManagementSettings(true, "", 0, 0));
    assertEquals("window=0 not in [1,65536]", e.getMessage());
  }

  @Test
  void shouldNameTheValueWhenTheStartIsNegative() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new ManagementSettings(true, "mh", -1, 8));
    assertEquals("discover-at=-1ns is negative", e.getMessage());
  }
}
