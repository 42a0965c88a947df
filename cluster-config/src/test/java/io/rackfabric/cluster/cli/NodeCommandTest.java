package io.rackfabric.cluster.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code rack node}: flags refused before the node's actor system starts. */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class NodeCommandTest {

  @TempDir
  Path dir;

  /** The journal's H2 URL would read the folder's ';' as the start of settings, INIT among them. */
  @Test
  void shouldExitTwoAndStartNothingWhenTheDataFolderHoldsAnH2Setting() throws Exception {
    Path data = dir.resolve("d;INIT=CREATE TABLE pwned(id INT)--");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Rack.run(List.of("node", "--topology", "ladon-testbed", "--node", "node-mmh",
            "--data-dir", data.toString()),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    String text = err.toString(StandardCharsets.UTF_8);
    assertEquals(2, status, text);
    assertTrue(text.startsWith("rack node: --data-dir=" + data + ": journal folder \""), text);
    assertTrue(text.endsWith("\": element \"d;INIT=CREATE TABLE pwned(id INT)--\" holds ';', which an"
        + " H2 URL would read as the start of a setting\n"), text);
    assertEquals(1, text.lines().count(), text);
    try (Stream<Path> left = Files.list(dir)) {
      assertEquals(List.of(), left.toList(), "no data folder, no d.mv.db");
    }
  }

  @Test
  void shouldExitTwoNamingTheValueWhenTheTransportIsUnknown() throws Exception {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Rack.run(List.of("node", "--topology", "ladon-testbed", "--node", "node-mmh",
            "--transport", "foo", "--data-dir", dir.resolve("data").toString()),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    String text = err.toString(StandardCharsets.UTF_8);
    assertEquals(2, status, text);
    assertEquals("rack node: --transport=foo not in {aeron-udp, tcp}\n", text);
    try (Stream<Path> left = Files.list(dir)) {
      assertEquals(List.of(), left.toList(), "no data folder");
    }
  }
}
