package io.rackfabric.persistence.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.ControllerEvent.IommuPageClosed;
import io.rackfabric.persistence.controller.ControllerEvent.IommuPageOpened;
import io.rackfabric.persistence.controller.ControllerState;
import io.rackfabric.persistence.controller.PagePermission;
import io.rackfabric.persistence.controller.SampleRack;
import io.rackfabric.persistence.journal.JournalPaths;
import io.rackfabric.persistence.kryo.JournalSerializer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad journals give one line naming the file and the reason; a long change log folds right. */
class JournalReaderTest {

  @TempDir
  Path dir;

  private ReplayException refused(Path path) {
    ReplayException e = assertThrows(ReplayException.class, () -> Journals.open(path).close());
    assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
    return e;
  }

  @Test
  void shouldNameThePathWhenTheFolderIsMissing() {
    Path missing = dir.resolve("no-such-run/data");
    assertEquals(missing + ": no such file or folder", refused(missing).getMessage());
  }

  @Test
  void shouldSayNoJournalWhenTheFolderHoldsNone() throws Exception {
    Files.writeString(dir.resolve("notes.txt"), "not a journal");
    assertEquals(dir + ": no journal in this folder (no *.mv.db file)", refused(dir).getMessage());
    assertEquals(dir.resolve("notes.txt") + ": not a journal file (an H2 file ends in .mv.db)",
        refused(dir.resolve("notes.txt")).getMessage());
  }

  @Test
  void shouldSayCorruptWhenTheFileIsNotAnH2Database() throws Exception {
    byte[] noise = new byte[64 * 1024];
    new Random(4).nextBytes(noise);
    Path file = Files.write(dir.resolve("node-a.mv.db"), noise);
    String message = refused(dir).getMessage();
    assertTrue(message.startsWith(file + ": corrupt or not an H2 database (H2 error "), message);
  }

  @Test
  void shouldSayForeignWhenTheH2FileHasNoJournalTables() throws Exception {
    try (Connection c = DriverManager.getConnection(JournalPaths.url(dir, "inventory"))) {
      c.createStatement().execute("CREATE TABLE parts (id INT PRIMARY KEY, name VARCHAR)");
    }
    assertEquals(dir.resolve("inventory.mv.db") + ": not a controller journal: an H2 database"
        + " without the journal's tables event_journal and snapshot", refused(dir).getMessage());
  }

  /** SQL that writes {@code target}; its path is spelled without '/', which a file name cannot hold. */
  private static String fileWrite(Path target) {
    return "CALL FILE_WRITE('owned', REPLACE('" + target.toString().replace('/', '|')
        + "', '|', CHAR(47)))";
  }

  /**
   * A journal folder holding {@code a;INIT=CALL FILE_WRITE(...)--.mv.db} beside a real journal
   * {@code a.mv.db}: opening the first used to open the second and run the statement.
   */
  @Test
  void shouldRefuseAJournalFileWhenItsNameHoldsAnInitSetting() throws Exception {
    new PluginSchemaFile(dir, "a").close();
    Path written = dir.resolve("owned");
    Path crafted = Files.copy(dir.resolve("a.mv.db"),
        dir.resolve("a;INIT=" + fileWrite(written) + "--.mv.db"));
    String message = refused(dir).getMessage();
    assertTrue(message.startsWith(crafted + ": not opened: journal name \"a;INIT=CALL FILE_WRITE("),
        message);
    assertTrue(message.endsWith("\" holds ';', which an H2 URL would read as the start of a"
        + " setting"), message);
    assertFalse(Files.exists(written), "the statement ran");
    assertEquals(message, refused(crafted).getMessage());
    assertFalse(Files.exists(written), "the statement ran");
  }

  @Test
  void shouldRefuseAJournalFolderWhenItHoldsAnInitSetting() throws Exception {
    Path written = dir.resolve("owned");
    Path data = Files.createDirectories(dir.resolve("x;INIT=" + fileWrite(written) + "--/data"));
    new PluginSchemaFile(dir, "x").close(); // what the URL would open: x.mv.db, above the folder
    Files.copy(dir.resolve("x.mv.db"), data.resolve("node-a.mv.db"));
    String message = refused(data).getMessage();
    assertTrue(message.startsWith(data.resolve("node-a.mv.db") + ": not opened: journal folder \""),
        message);
    assertTrue(message.contains("\" holds ';', which an H2 URL would read as the start of a"
        + " setting"), message);
    assertFalse(Files.exists(written), "the statement ran");
  }

  @Test
  void shouldShowAControlCharacterInAFileNameEscaped() throws Exception {
    new PluginSchemaFile(dir, "a").close();
    Path crafted = Files.copy(dir.resolve("a.mv.db"), dir.resolve("a\nb.mv.db"));
    assertEquals(dir + "/a\\nb.mv.db: not opened: journal name \"a\\nb\" holds control character"
        + " U+000A", refused(crafted).getMessage());
  }

  @Test
  void shouldNameTheManifestWhenAnEventIsOfAnUnknownKind() throws Exception {
    try (PluginSchemaFile file = new PluginSchemaFile(dir, "node-a")) {
      file.insert("controller-x", 1, JournalSerializer.IDENTIFIER, "9999:v1", new byte[] {7, 0});
      file.insert("other-x", 1, 1, "", new byte[] {1});
    }
    try (Journals journals = Journals.open(dir)) {
      JournalReader reader = journals.require("controller-x");
      ReplayException unknown = assertThrows(ReplayException.class,
          () -> reader.events("controller-x", 0, 10));
      assertEquals(dir.resolve("node-a.mv.db") + ": id=controller-x seqNr=1: cannot decode"
          + " (manifest=9999:v1): manifest=9999:v1: wire id 9999 is not registered",
          unknown.getMessage());
      ReplayException foreign = assertThrows(ReplayException.class,
          () -> Replay.stateAt(journals.require("other-x"), "other-x", 1));
      assertEquals(dir.resolve("node-a.mv.db") + ": id=other-x seqNr=1: written by serializer id"
          + " 1, not the journal serializer (7210): not a controller journal", foreign.getMessage());
    }
  }

  @Test
  void shouldSayInUseWhenANodeHoldsTheJournalOpen() throws Exception {
    try (PluginSchemaFile running = new PluginSchemaFile(dir, "node-a")) {
      running.insertAll("controller-x", List.of(new ControllerEvent.TemplateImageTaken(1)));
      assertEquals(dir.resolve("node-a.mv.db") + ": in use (locked by a running node or an open"
          + " connection); stop the node or replay a copy of the file", refused(dir).getMessage());
    }
    try (Journals stopped = Journals.open(dir)) {
      assertEquals(1, stopped.summaries().get(0).events());
    }
  }

  @Test
  void shouldFoldToTheDirectFoldWhenTheChangeLogHasTenThousandEvents() throws Exception {
    List<ControllerEvent> events = new ArrayList<>();
    ControllerState expected = SampleRack.expected(events);
    long page = 32 * SampleRack.GIB;
    // A host's pages opened, each closed again 64 pages later, as buffers come and go.
    for (int k = 0; events.size() < 10_000; k++) {
      long at = 20_000 + k * 1_000L;
      events.add(new IommuPageOpened("ch1", 0x0200, page + k * 4096L, PagePermission.READ, at));
      if (k >= 64) {
        events.add(new IommuPageClosed("ch1", 0x0200, page + (k - 64) * 4096L, at + 500));
      }
    }
    for (ControllerEvent e : events.subList(16, events.size())) {
      expected = expected.apply(e);
    }
    try (PluginSchemaFile file = new PluginSchemaFile(dir, "long")) {
      file.insertAll("controller-long", events);
    }
    try (Journals journals = Journals.open(dir)) {
      Replay.Folded f = Replay.stateAt(journals.require("controller-long"), "controller-long",
          events.size());
      assertEquals(expected, f.state());
      assertEquals(events.size(), f.eventsFolded());
    }
  }
}
