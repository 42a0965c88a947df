package io.rackfabric.persistence.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalConfigTest {

  private static final String URL = "akka-persistence-jdbc.shared-databases.slick.db.url";

  @TempDir
  Path dir;

  @Test
  void shouldPointJournalAndSnapshotsAtNodeFileWhenBuilt() {
    Config c = JournalConfig.h2(dir.resolve("run7"), "node-b", 3);
    assertEquals("jdbc-journal", c.getString("akka.persistence.journal.plugin"));
    assertEquals("jdbc-snapshot-store", c.getString("akka.persistence.snapshot-store.plugin"));
    assertEquals("jdbc:h2:file:" + dir.resolve("run7/node-b") + ";DATABASE_TO_UPPER=false;DB_CLOSE_ON_EXIT=FALSE"
        + ";WRITE_DELAY=0",
        c.getString(URL));
    assertEquals(3, c.getInt("akka-persistence-jdbc.shared-databases.slick.db.maxConnections"));
    assertTrue(Files.isDirectory(dir.resolve("run7")), "the data folder is made before H2 makes it");
  }

  @Test
  void shouldRejectNodeNameWhenItIsNotAPlainFileName() {
    var e = assertThrows(IllegalArgumentException.class,
        () -> JournalConfig.h2(dir, "../etc", 2));
    assertEquals("journal name \"../etc\" holds '/', a path separator: the journal would leave its"
        + " folder", e.getMessage());
  }

  /**
   * The run folder of a scenario file named {@code x;INIT=CREATE TABLE pwned(id INT)--.conf} with
   * no {@code name} key: its journal's URL used to run the statement, in a database {@code x.mv.db}
   * outside the run folder, as soon as the journal's pool connected (done by hand here).
   */
  @Test
  void shouldRefuseAJournalFolderWhenAScenarioFileNameMadeItAnH2Setting() throws Exception {
    Path data = dir.resolve("x;INIT=CREATE TABLE pwned(id INT)---2024-01-01T00-00-00Z/data");
    var e = assertThrows(IllegalArgumentException.class, () -> {
      String url = JournalConfig.h2(data, "rack", 2).getString(URL);
      DriverManager.getConnection(url).close();
    });
    assertTrue(e.getMessage().endsWith(": element \"x;INIT=CREATE TABLE pwned(id INT)---2024-01-01T00"
        + "-00-00Z\" holds ';', which an H2 URL would read as the start of a setting"), e.getMessage());
    try (Stream<Path> left = Files.list(dir)) {
      assertEquals(List.of(), left.toList(), "no database (x.mv.db) and no run folder");
    }
  }

  @Test
  void shouldRefuseTheNodeNameBeforeCreatingTheFolder() {
    assertThrows(IllegalArgumentException.class,
        () -> JournalConfig.h2(dir.resolve("data"), "node;INIT=SELECT 1", 2));
    assertFalse(Files.exists(dir.resolve("data")));
  }
}
