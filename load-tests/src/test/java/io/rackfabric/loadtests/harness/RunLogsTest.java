package io.rackfabric.loadtests.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * While a run's logs are open, a WARN line of Akka's goes to {@code RUN/logs/driver.log} and not to
 * the terminal, an ERROR line to both; once closed, the console has the WARN lines again.
 */
class RunLogsTest {

  private static final Logger AKKA = LoggerFactory.getLogger("akka.cluster.ClusterHeartbeat");

  @TempDir Path dir;

  @Test
  void shouldKeepWarningsOffTheTerminalAndErrorsOnItWhileARunsLogsAreOpen() throws Exception {
    ByteArrayOutputStream terminal = new ByteArrayOutputStream();
    PrintStream out = System.out;
    PrintStream err = System.err;
    PrintStream captured = new PrintStream(terminal, true, StandardCharsets.UTF_8);
    System.setOut(captured);
    System.setErr(captured);
    Path file;
    try {
      try (RunLogs logs = RunLogs.open(dir)) {
        file = logs.file();
        AKKA.warn("heartbeat interval is growing (during the run)");
        AKKA.info("member is up (during the run)");
        AKKA.error("association failed (during the run)");
        assertEquals("logs: " + file, logs.summary());
      }
      AKKA.warn("after the run");
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    String printed = terminal.toString(StandardCharsets.UTF_8);
    String logged = Files.readString(file);
    assertEquals(dir.resolve(RunLogs.DIR).resolve(RunLogs.DRIVER), file);
    assertTrue(logged.contains("WARN  akka.cluster.ClusterHeartbeat - heartbeat interval is growing"), logged);
    assertTrue(logged.contains("INFO  akka.cluster.ClusterHeartbeat - member is up"), logged);
    assertTrue(logged.contains("ERROR akka.cluster.ClusterHeartbeat - association failed"), logged);
    assertFalse(printed.contains("heartbeat interval is growing") || printed.contains("member is up"), printed);
    assertTrue(printed.contains("association failed (during the run)"), "errors still reach the terminal: " + printed);
    assertTrue(printed.contains("after the run"), "the console is back once the run's logs close: " + printed);
    assertFalse(logged.contains("after the run"), logged);
  }
}
