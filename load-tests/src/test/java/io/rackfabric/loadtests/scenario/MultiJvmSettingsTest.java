package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.FaultRecordTest.readJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.harness.RunLogs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code --set} setting reaches the node JVMs of a multi-JVM run: the demo rack's switch runs in
 * node-a's JVM, and its latency, set far above the default, shows in the latency ch2 measures in
 * node-c's. Each node JVM's log is in the run's {@code logs} folder, the driver's Akka lines in
 * its own file there, none on the terminal.
 */
@Tag("multi-jvm")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class MultiJvmSettingsTest {

  private static final String SCENARIO = String.join("\n",
      "scenario {",
      "  name = slow-switch-multi",
      "  topology = demo",
      "  mode = multi-jvm",
      "  multi-jvm { transport = tcp }",
      "  run { duration = 20us, wall-limit = 2m }",
      "  traffic = [ { name = a, from = ch1, to = ch2, interval = 1us } ]",
      "}") + "\n";
  private static final long NTB_NS = 5_000;

  @TempDir Path dir;

  @Test
  void shouldApplyASetSettingInTheNodeJvmsWhenTheRunIsMultiJvm() throws Exception {
    Path file = dir.resolve("slow-switch-multi.conf");
    Files.writeString(file, SCENARIO);
    Path runDir = dir.resolve("run");
    RackCall call = new RackCall();
    String terminal = SettingsRunTest.capturingTerminal(() -> assertEquals(0, call.run("run", file.toString(),
        "--run-dir", runDir.toString(), "--set", "rackfabric.fabric.ntb-latency=" + NTB_NS + "ns"), call.err()));
    SettingsRunTest.assertQuiet(terminal, call);
    String driverLog = Files.readString(runDir.resolve(RunLogs.DIR).resolve(RunLogs.DRIVER));
    assertTrue(driverLog.contains(" akka.cluster"), "the driver's cluster lines are in its log:\n" + driverLog);

    Map<String, Object> result = readJson(runDir.resolve(RunFiles.RESULT));
    assertEquals(Map.of("rackfabric.fabric.ntb-latency", NTB_NS + "ns"), result.get("settings"));
    long latencyMin = SettingsRunTest.figure(result, "sink.ch2.latency_min");
    // ch1 to ch2 crosses tor through two of its NTB ports: tor runs in node-a's JVM.
    assertTrue(latencyMin >= 2 * NTB_NS, "the switch in node-a's JVM took the setting: latency_min=" + latencyMin);
    assertTrue(Files.isRegularFile(runDir.resolve(RunLogs.DIR).resolve("node-a.log")), "node logs beside the driver's");
    assertTrue(call.out().contains("node JVMs: "), call.out());
  }
}
