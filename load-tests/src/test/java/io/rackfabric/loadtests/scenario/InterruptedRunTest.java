package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.harness.NodeProcesses;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code rack run} in a JVM of its own, stopped by SIGTERM ({@code kill}) as Ctrl-C's SIGINT would
 * stop it (both take the same path: a JVM shutdown hook): while the rack boots with
 * its journal, and while traffic runs. It says "interrupted", leaves a whole {@code result.json}
 * marked unfinished, exits with the signal's status (143 for SIGTERM; 130 for SIGINT), its journal
 * is closed by Akka's coordinated shutdown rather than raced by H2's own hook, and nothing it
 * started outlives it.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class InterruptedRunTest {

  /** A rack with a journal and traffic that runs far longer than the test waits (1 M writes). */
  private static final String LONG_RUN = String.join("\n",
      "scenario {",
      "  name = interrupted",
      "  topology = ladon-testbed",
      "  mode = MODE",
      "  run { duration = 1s, wall-limit = 5m }",
      "  traffic = [ { name = w, from = ch1, to = \"0x18_0010_0000\", size = 64, interval = 1us } ]",
      "}") + "\n";

  private static final int SIGTERM_STATUS = 128 + 15;

  @TempDir Path dir;

  @ParameterizedTest(name = "signalled at \"{0}\"")
  @ValueSource(strings = {"rack run interrupted: topology", "  stretch 1/1"})
  void shouldSayInterruptedAndLeaveAnUnfinishedResultWhenStoppedBySignal(String when) throws Exception {
    List<ProcessHandle> children = interrupt("single-jvm", when);
    assertEquals(List.of(), children, "a rack in one JVM starts no process");
  }

  /** The rack's five node JVMs (and their media driver) go with the run's JVM. */
  @Test
  @Tag("multi-jvm")
  void shouldStopEveryNodeJvmWhenAMultiJvmRunIsStoppedBySignal() throws Exception {
    List<ProcessHandle> children = interrupt("multi-jvm", "  stretch 1/1");
    assertFalse(children.isEmpty(), "the run had started its node JVMs");
  }

  /**
   * Runs the long scenario in {@code mode}, stops it by SIGTERM at the first line starting with
   * {@code when}, checks what it left; returns the processes it had started (all gone by then).
   */
  private List<ProcessHandle> interrupt(String mode, String when) throws Exception {
    Path scenario = Files.writeString(dir.resolve("interrupted.conf"), LONG_RUN.replace("MODE", mode));
    Path runDir = dir.resolve("run");
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(NodeProcesses.JVM_OPENS);
    cmd.addAll(List.of("-Xmx512m", "-cp",
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
        "io.rackfabric.cluster.cli.Rack", "run", scenario.toString(), "--run-dir", runDir.toString()));
    Process rack = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    StringBuffer output = new StringBuffer();
    CountDownLatch reached = new CountDownLatch(1);
    Thread pump = pump(rack, output, when, reached);
    List<ProcessHandle> started = new ArrayList<>();
    try {
      while (!reached.await(100, TimeUnit.MILLISECONDS)) {
        assertTrue(rack.isAlive(), () -> "rack run ended before \"" + when + "\":\n" + output);
      }
      started.addAll(rack.descendants().toList());
      // Not Process.destroy(): it also closes this side of the child's output, which is still to be read.
      assertEquals(0, new ProcessBuilder("kill", "-TERM", Long.toString(rack.pid())).inheritIO().start().waitFor());
      assertTrue(rack.waitFor(2, TimeUnit.MINUTES), () -> "still running after SIGTERM:\n" + output);
      pump.join(TimeUnit.SECONDS.toMillis(30));
      String text = output.toString();

      assertEquals(SIGTERM_STATUS, rack.exitValue(), text);
      assertTrue(text.contains("rack run interrupted: interrupted"), text);
      assertFalse(text.contains("Database is already closed"), text);
      Path result = runDir.resolve(RunFiles.RESULT);
      assertTrue(Files.isRegularFile(result), () -> "no result.json:\n" + text);
      Map<String, Object> json = FaultRecordTest.readJson(result);
      assertEquals(false, json.get("finished"));
      assertEquals(true, json.get("interrupted"));
      assertNull(json.get("passed"), "no verdict for a run that did not end");
      assertEquals("interrupted", json.get("scenario"));
      assertTrue(text.contains("unfinished result in " + result.toAbsolutePath().normalize()), text);
      for (ProcessHandle child : started) {
        assertFalse(child.isAlive(), () -> "left running: " + child.info().commandLine().orElse("?"));
      }
      try (var files = Files.list(runDir)) {
        assertEquals(List.of(), files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".tmp"))
            .toList(), "no temporary file of an atomic write left behind");
      }
      return started;
    } finally {
      rack.descendants().forEach(ProcessHandle::destroyForcibly);
      rack.destroyForcibly();
      rack.waitFor(30, TimeUnit.SECONDS);
    }
  }

  /** Copies the child's output into {@code into}, counting {@code seen} down at the first line starting with {@code mark}. */
  private static Thread pump(Process p, StringBuffer into, String mark, CountDownLatch seen) {
    Thread t = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          into.append(line).append('\n');
          if (line.startsWith(mark)) {
            seen.countDown();
          }
        }
      } catch (IOException e) {
        into.append("[output lost: ").append(e).append("]\n");
      }
    }, "interrupted-run-output");
    t.setDaemon(true);
    t.start();
    return t;
  }
}
