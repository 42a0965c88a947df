package io.rackfabric.loadtests.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.UUID;

/**
 * Writes a result file whole or not at all: into a temporary file in the same folder, then moved
 * over the target in one step. A reader (a browser on report.html, a script polling result.json,
 * a replay) never sees half a file, also when the run is interrupted while writing.
 */
public final class AtomicFiles {

  private AtomicFiles() {}

  /** Writes {@code text} as UTF-8 to {@code file}, creating its folder when missing. */
  public static Path writeString(Path file, String text) throws IOException {
    Path target = file.toAbsolutePath().normalize();
    Path dir = Files.createDirectories(target.getParent());
    // Same folder: a move within one file system can be atomic, across two it cannot. Not
    // createTempFile, which makes the file owner-only: a result keeps the umask's permissions.
    Path tmp = dir.resolve("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
    try {
      Files.writeString(tmp, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW,
          StandardOpenOption.WRITE);
      try {
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
    return file;
  }

  /** Writes {@code lines}, each ended by a newline, as {@link #writeString} does. */
  public static Path writeLines(Path file, Iterable<String> lines) throws IOException {
    StringBuilder b = new StringBuilder();
    lines.forEach(l -> b.append(l).append('\n'));
    return writeString(file, b.toString());
  }
}
