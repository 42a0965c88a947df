package io.rackfabric.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class PersistenceSettingsTest {

  @Test
  void shouldReadDefaultsWhenNothingIsOverridden() {
    PersistenceSettings s = PersistenceSettings.create(ConfigFactory.load());
    assertEquals(Path.of("data"), s.dataDir());
    assertEquals(256, s.maxInFlight());
    assertEquals(Duration.ofSeconds(5), s.replicationTimeout());
    assertEquals(2, s.journalConnections());
  }

  @Test
  void shouldNameTheValueWhenSettingIsBad() {
    var e = assertThrows(IllegalArgumentException.class, () -> PersistenceSettings.create(
        ConfigFactory.parseString("rackfabric.persistence.max-in-flight = 5000")
            .withFallback(ConfigFactory.load())));
    assertTrue(e.getMessage().contains("max-in-flight=5000"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> PersistenceSettings.create(
        ConfigFactory.parseString("rackfabric.persistence.replication-timeout = 0s")
            .withFallback(ConfigFactory.load())));
    assertTrue(e.getMessage().contains("replication-timeout=PT0S"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> PersistenceSettings.create(
        ConfigFactory.parseString("rackfabric.persistence.data-dir = \"  \"")
            .withFallback(ConfigFactory.load())));
    assertTrue(e.getMessage().contains("data-dir"), e.getMessage());
  }
}
