package io.rackfabric.loadtests.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFilesTest {

  @TempDir
  Path dir;

  @Test
  void shouldReplaceTheFileAndLeaveNoTemporaryFileWhenWritten() throws Exception {
    Path file = dir.resolve("run/result.json");
    AtomicFiles.writeString(file, "{\"first\": true}");
    AtomicFiles.writeString(file, "{\"second\": true}");
    assertEquals("{\"second\": true}", Files.readString(file));
    try (Stream<Path> left = Files.list(file.getParent())) {
      assertEquals(List.of("result.json"), left.map(p -> p.getFileName().toString()).toList());
    }
  }

  @Test
  void shouldEndEveryLineWhenWritingLines() throws Exception {
    Path file = AtomicFiles.writeLines(dir.resolve("failing-runs.txt"), List.of("a", "b"));
    assertEquals("a\nb\n", Files.readString(file));
  }
}
