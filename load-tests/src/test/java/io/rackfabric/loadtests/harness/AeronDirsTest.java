package io.rackfabric.loadtests.harness;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class AeronDirsTest {

  @Test
  void shouldRemoveADeadDriversDirectoryButKeepANewOneWhenSweeping() throws Exception {
    Path dead = Files.createDirectories(Path.of("/dev/shm", "rack-aeron-test-dead-" + System.nanoTime()));
    Path fresh = Files.createDirectories(Path.of("/dev/shm", "rack-aeron-test-fresh-" + System.nanoTime()));
    try {
      Files.writeString(dead.resolve("cnc.dat"), "no heartbeat here");
      long hourAgo = System.currentTimeMillis() - 3_600_000L;
      assertTrue(dead.resolve("cnc.dat").toFile().setLastModified(hourAgo));
      assertTrue(dead.toFile().setLastModified(hourAgo));

      assertTrue(AeronDirs.sweep().contains(dead));
      assertFalse(Files.exists(dead), "a driver that stopped beating long ago is gone");
      assertTrue(Files.exists(fresh), "a driver that may still be starting is kept");
    } finally {
      Files.deleteIfExists(dead.resolve("cnc.dat"));
      Files.deleteIfExists(dead);
      Files.deleteIfExists(fresh);
    }
  }
}
