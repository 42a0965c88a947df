package io.rackfabric.persistence.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Folders and names that would change what an H2 URL means are refused with one line naming the
 * value and why; plain ones give the absolute, normalized path. Journal folders are owner-only.
 */
class JournalPathsTest {

  @TempDir
  Path dir;

  private static String refused(Path folder, String name) {
    var e = assertThrows(IllegalArgumentException.class, () -> JournalPaths.url(folder, name));
    assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
    return e.getMessage();
  }

  @Test
  void shouldRefuseAJournalNameWhenItHoldsAnH2Setting() {
    assertEquals("journal name \"x;INIT=CREATE TABLE pwned(id INT)--\" holds ';', which an H2 URL"
        + " would read as the start of a setting",
        refused(dir, "x;INIT=CREATE TABLE pwned(id INT)--"));
    assertEquals("journal name \"a=b\" holds '=', which an H2 URL would read as a setting's value",
        refused(dir, "a=b"));
  }

  @Test
  void shouldRefuseAFolderWhenOneOfItsElementsHoldsAnH2Setting() {
    String run = "x;INIT=RUNSCRIPT FROM 'evil.sql'--2024-01-01T00-00-00.123456Z";
    assertEquals("journal folder \"" + (dir + "/" + run + "/data").substring(0, 77) + "...\":"
        + " element \"" + run + "\" holds ';', which an H2 URL would read as the start of a setting",
        refused(dir.resolve(run + "/data"), "rack"));
    assertTrue(refused(dir.resolve("a=b/data"), "rack").endsWith(
        ": element \"a=b\" holds '=', which an H2 URL would read as a setting's value"));
  }

  @Test
  void shouldRefuseAJournalNameWhenItWouldLeaveItsFolder() {
    assertEquals("journal name \"..\" starts with '.': a journal name starts with a letter, digit"
        + " or '_'", refused(dir, ".."));
    assertEquals("journal name \"../etc/passwd\" holds '/', a path separator: the journal would"
        + " leave its folder", refused(dir, "../etc/passwd"));
    assertEquals("journal name \"..\\x\" holds '\\', a path separator: the journal would leave"
        + " its folder", refused(dir, "..\\x"));
  }

  @Test
  void shouldRefuseAJournalNameWhenItHoldsAControlCharacter() {
    assertEquals("journal name \"node\\nINIT\" holds control character U+000A",
        refused(dir, "node\nINIT"));
    assertTrue(refused(dir.resolve("run\u0007/data"), "rack")
        .endsWith(": element \"run\\u0007\" holds control character U+0007"));
  }

  @Test
  void shouldRefuseAJournalNameWhenItHoldsCharactersOutsideThePlainSet() {
    assertEquals("journal name \"mem:x\" holds ':', which H2 would read as a file system prefix"
        + " (as in mem: or zip:)", refused(dir, "mem:x"));
    for (String c : new String[] {"?", "#", "%", " ", "'", "é"}) {
      assertEquals("journal name \"a" + c + "b\" holds '" + c + "': a journal name is letters,"
          + " digits, '.', '_' and '-'", refused(dir, "a" + c + "b"));
    }
    assertEquals("journal name \"\" is empty", refused(dir, ""));
    assertEquals("journal name is missing", refused(dir, null));
  }

  @Test
  void shouldCutALongNameInTheMessageAndStillSayWhy() {
    String name = "n".repeat(300) + ";INIT=SELECT 1";
    String message = refused(dir, name);
    assertEquals("journal name \"" + "n".repeat(77) + "...\" holds ';', which an H2 URL would read"
        + " as the start of a setting", message);
  }

  @Test
  void shouldBuildTheUrlFromTheNormalizedAbsolutePathWhenFolderAndNameArePlain() {
    assertEquals("jdbc:h2:file:/tmp/run7/node-b;DATABASE_TO_UPPER=false;IFEXISTS=TRUE",
        JournalPaths.url(Path.of("/tmp/other/../run7/."), "node-b", "DATABASE_TO_UPPER=false",
            "IFEXISTS=TRUE"));
    // A folder element that only a ".." after it holds is gone from the path H2 sees.
    assertEquals("jdbc:h2:file:/tmp/run7/_n.1", JournalPaths.url(Path.of("/tmp/a;b/../run7"), "_n.1"));
    assertEquals(Path.of("").toAbsolutePath().resolve("data/rack"),
        JournalPaths.journal(Path.of("data"), "rack"));
    assertEquals("jdbc:h2:file:" + dir.resolve("node-a") + ";IFEXISTS=TRUE",
        JournalPaths.urlOfFile(dir.resolve("node-a.mv.db"), "IFEXISTS=TRUE"));
    assertEquals(Optional.of(dir.resolve("node-a.mv.db")),
        JournalPaths.fileOf(JournalPaths.url(dir, "node-a", "DATABASE_TO_UPPER=false")));
    assertEquals(Optional.empty(), JournalPaths.fileOf("jdbc:h2:mem:x"));
  }

  @Test
  void shouldRefuseAJournalFileWhenItsNameIsNotPlain() {
    var e = assertThrows(IllegalArgumentException.class,
        () -> JournalPaths.urlOfFile(dir.resolve("a;INIT=SELECT 1--.mv.db")));
    assertEquals("journal name \"a;INIT=SELECT 1--\" holds ';', which an H2 URL would read as the"
        + " start of a setting", e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> JournalPaths.urlOfFile(dir.resolve(".mv.db")));
    assertEquals("journal name \"\" is empty", e.getMessage());
  }

  @Test
  void shouldCreateTheFolderOwnerOnlyWhenItIsMissing() throws Exception {
    assumeTrue(dir.getFileSystem().supportedFileAttributeViews().contains("posix"), "no POSIX");
    Path plain = Files.createDirectory(dir.resolve("plain"));
    assumeTrue(!Files.getPosixFilePermissions(plain).equals(perms("rwx------")),
        "the umask already makes folders owner-only: nothing to show");

    Path data = JournalPaths.createFolder(dir.resolve("run/data"));
    assertEquals(dir.resolve("run/data"), data);
    assertEquals(perms("rwx------"), Files.getPosixFilePermissions(data));
    assertEquals(perms("rwx------"), Files.getPosixFilePermissions(dir.resolve("run")));
    // A folder that is there is the user's: left as it is.
    JournalPaths.createFolder(plain);
    assertFalse(Files.getPosixFilePermissions(plain).equals(perms("rwx------")));
  }

  @Test
  void shouldMakeTheJournalFileOwnerOnlyWhenItExists() throws Exception {
    assumeTrue(dir.getFileSystem().supportedFileAttributeViews().contains("posix"), "no POSIX");
    Path file = Files.createFile(dir.resolve("node-a.mv.db"));
    Files.setPosixFilePermissions(file, perms("rw-r--r--")); // as H2 makes it under umask 022
    JournalPaths.restrictToOwner(file);
    assertEquals(perms("rw-------"), Files.getPosixFilePermissions(file));
    JournalPaths.restrictToOwner(dir.resolve("missing.mv.db")); // nothing to do, no error
    assertFalse(Files.exists(dir.resolve("missing.mv.db")));
  }

  @Test
  void shouldNotCreateTheFolderWhenItHoldsAnH2Setting() {
    Path folder = dir.resolve("x;INIT=SELECT 1--/data");
    assertThrows(IllegalArgumentException.class, () -> JournalPaths.createFolder(folder));
    assertFalse(Files.exists(dir.resolve("x;INIT=SELECT 1--")));
  }

  private static Set<PosixFilePermission> perms(String text) {
    return PosixFilePermissions.fromString(text);
  }
}
