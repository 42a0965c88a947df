package io.rackfabric.loadtests.harness;

import io.aeron.CommonContext;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Removes the Aeron directories that rack JVMs left behind. A media driver maps a few hundred MB
 * of files in /dev/shm and deletes them on a clean shutdown only: a node killed with SIGKILL (a
 * kill-node fault, a reaper's last resort) leaves its directory, and on a machine that runs many
 * cluster tests those fill the shared-memory file system until JVMs die for lack of memory. Only
 * directories of rack drivers whose heartbeat stopped (and that are not new) are removed, so concurrent runs are safe.
 */
public final class AeronDirs {

  /** A driver that has not beaten for this long is dead (Aeron's own driver timeout is 10s). */
  private static final long DEAD_AFTER_MS = 15_000;

  private AeronDirs() {}

  /** Deletes every dead rack driver's directory; returns the ones deleted. */
  public static List<Path> sweep() {
    List<Path> candidates = new ArrayList<>();
    // Embedded drivers: Akka names them after the actor system ("rack") under Aeron's default.
    collect(Path.of(CommonContext.getAeronDirectoryName()), "rack-", candidates);
    // Shared drivers started by NodeProcesses.startMediaDriver.
    collect(Path.of("/dev/shm"), "rack-aeron-", candidates);
    List<Path> deleted = new ArrayList<>();
    long now = System.currentTimeMillis();
    for (Path dir : candidates) {
      // A driver still starting has no heartbeat yet, but a fresh directory.
      boolean old = now - dir.toFile().lastModified() > DEAD_AFTER_MS;
      if (old && !CommonContext.isDriverActive(dir.toFile(), DEAD_AFTER_MS, message -> { })) {
        try {
          deleteTree(dir);
          deleted.add(dir);
        } catch (IOException e) {
          // Another sweep got there first, or the files are not ours: leave them.
        }
      }
    }
    return deleted;
  }

  private static void collect(Path parent, String prefix, List<Path> out) {
    File[] children = parent.toFile().listFiles();
    if (children == null) {
      return;
    }
    for (File f : children) {
      if (f.isDirectory() && f.getName().startsWith(prefix)) {
        out.add(f.toPath());
      }
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
