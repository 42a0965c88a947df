package io.rackfabric.persistence.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class JournalConfigTest {

  @Test
  void shouldPointJournalAndSnapshotsAtNodeFileWhenBuilt() {
    Config c = JournalConfig.h2(Path.of("/tmp/run7"), "node-b", 3);
    assertEquals("jdbc-journal", c.getString("akka.persistence.journal.plugin"));
    assertEquals("jdbc-snapshot-store", c.getString("akka.persistence.snapshot-store.plugin"));
    assertEquals("jdbc:h2:file:/tmp/run7/node-b;DATABASE_TO_UPPER=false",
        c.getString("akka-persistence-jdbc.shared-databases.slick.db.url"));
    assertEquals(3, c.getInt("akka-persistence-jdbc.shared-databases.slick.db.maxConnections"));
  }

  @Test
  void shouldRejectNodeNameWhenItIsNotAPlainFileName() {
    var e = assertThrows(IllegalArgumentException.class,
        () -> JournalConfig.h2(Path.of("/tmp"), "../etc", 2));
    assertTrue(e.getMessage().contains("node=../etc"), e.getMessage());
  }
}
