package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.FaultRecordTest.map;
import static io.rackfabric.loadtests.scenario.FaultRecordTest.readJson;
import static io.rackfabric.loadtests.scenario.ScenarioFiles.assertContains;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.harness.RunLogs;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rack run} with settings: a bad {@code --set} value is refused at {@code --check} (exit 2,
 * naming the key); a setting reaches the run's rack (a switch latency shows in the measured model
 * latency), is listed in result.json and is applied again by {@code --replay}; and Akka's log
 * lines go to the run's log file, not to the terminal.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SettingsRunTest {

  /** One switch (tor) between ch1 and ch2; the switch latency is set far above the default. */
  private static final String SCENARIO = String.join("\n",
      "scenario {",
      "  name = slow-switch",
      "  topology = demo",
      "  mode = single-jvm",
      "  run { duration = 20us, wall-limit = 1m }",
      "  traffic = [ { name = a, from = ch1, to = ch2, interval = 1us }, { name = b, from = mh, to = mem, interval = 1us } ]",
      "  settings { rackfabric.fabric.switch-latency = 5us }",
      "}") + "\n";
  private static final long SWITCH_NS = 5_000;

  @TempDir Path dir;

  private final RackCall call = new RackCall();

  private Path scenario() throws Exception {
    Path file = dir.resolve("slow-switch.conf");
    Files.writeString(file, SCENARIO);
    return file;
  }

  @Test
  void shouldExitTwoNamingTheKeyWhenASetValueIsRefusedAtCheck() throws Exception {
    int status = call.run("run", scenario().toString(), "--check", "--set", "rackfabric.fabric.max-payload=300");
    assertEquals(2, status, call.err());
    assertContains(call.err(), "--set: rackfabric.fabric.max-payload: rackfabric.fabric: max-payload=300 not in"
        + " {128,256,512,1024,2048,4096}");

    assertEquals(2, call.run("run", scenario().toString(), "--check", "--set", "rackfabric.fabric.max-payload"));
    assertContains(call.err(), "--set rackfabric.fabric.max-payload is not KEY=VALUE");

    assertEquals(0, call.run("run", scenario().toString(), "--check", "--set", "rackfabric.fabric.max-payload=512"),
        call.err());
    assertContains(call.out(), "setting rackfabric.fabric.switch-latency = 5us");
    assertContains(call.out(), "setting rackfabric.fabric.max-payload = 512");
  }

  @Test
  void shouldApplyTheSettingsListThemAndReplayThemWhenASingleJvmRunEnds() throws Exception {
    Path first = dir.resolve("first");
    String terminal = capturingTerminal(() -> assertEquals(0, call.run("run", scenario().toString(), "--run-dir",
        first.toString(), "--set", "rackfabric.fabric.ntb-latency=1us"), call.err()));

    Map<String, Object> result = readJson(first.resolve(RunFiles.RESULT));
    assertEquals(Map.of("rackfabric.fabric.switch-latency", "5us", "rackfabric.fabric.ntb-latency", "1us"),
        result.get("settings"));
    long latencyMin = figure(result, "sink.ch2.latency_min");
    // ch1 to ch2 goes in and out through two NTB ports of tor: two NTB crossings of the set 1us;
    // mh to mem crosses tor and the leaf switch between bridges: two of the scenario's 5us.
    assertTrue(latencyMin >= 2_000, "a TLP crosses two NTBs: latency_min=" + latencyMin + "ns");
    long memMin = figure(result, "sink.mem.latency_min");
    assertTrue(memMin >= 2 * SWITCH_NS, "a TLP crosses two switches: latency_min=" + memMin + "ns");
    assertContains(call.err(), "setting rackfabric.fabric.ntb-latency = 1us");

    // Quiet terminal: the run's progress and results, Akka's lines in the log file.
    assertQuiet(terminal, call);
    Path log = first.resolve(RunLogs.DIR).resolve(RunLogs.DRIVER);
    assertContains(call.out(), "logs: " + log);
    String logged = Files.readString(log);
    assertTrue(logged.contains(" akka."), "Akka's log lines are in " + log + ":\n" + logged);

    Path again = dir.resolve("again");
    assertEquals(0, call.run("run", "--replay", first.toString(), "--run-dir", again.toString()), call.err());
    assertContains(call.out(), "replay: every model-time and count figure as recorded");
    assertEquals(result.get("settings"), readJson(again.resolve(RunFiles.RESULT)).get("settings"));
  }

  /** No Akka or SLF4J line in what a run printed, to the streams it was given or to this JVM's own. */
  static void assertQuiet(String terminal, RackCall call) {
    for (String printed : List.of(terminal, call.out(), call.err())) {
      assertTrue(!printed.contains(" akka.") && !printed.contains("SLF4J:") && !printed.contains("[akka"),
          "no Akka or SLF4J line on the terminal:\n" + printed);
    }
  }

  static long figure(Map<String, Object> result, String name) {
    for (Object o : (List<?>) result.get("figures")) {
      Map<String, Object> f = map(o);
      if (f.get("name").equals(name)) {
        return ((Number) f.get("value")).longValue();
      }
    }
    throw new AssertionError("no figure " + name + " in " + result.get("figures"));
  }

  interface Body {
    void run() throws Exception;
  }

  /** What {@code body} prints to this JVM's own stdout and stderr (where loggers write). */
  static String capturingTerminal(Body body) throws Exception {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream both = new PrintStream(captured, true, StandardCharsets.UTF_8);
    System.setOut(both);
    System.setErr(both);
    try {
      body.run();
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    return captured.toString(StandardCharsets.UTF_8);
  }
}
