package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rackfabric.cluster.cli.Rack;
import io.rackfabric.loadtests.harness.Netns;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rack run} on a scenario whose degrade needs netem, on a kernel without it (this machine's):
 * exit 3 with the reason, no JVM started, no namespace built. Where the kernel has netem the run
 * would start the rack, which this test does not do (it checks the kernel first).
 */
@Tag("multi-jvm")
class NetnsRefusalTest {

  @TempDir Path dir;

  @Test
  void shouldRefuseWithExitThreeAndStartNothingWhenADegradeNeedsNetemAndTheKernelHasNone() throws Exception {
    assumeTrue(!kernelHasNetem(), "this kernel has netem: nothing to refuse");
    Path file = dir.resolve("degrade.conf");
    Files.writeString(file, String.join("\n",
        "scenario {",
        "  name = degrade-refused",
        "  topology = demo",
        "  mode = multi-jvm",
        "  multi-jvm { network = namespaces, transport = tcp }",
        "  run { wall-limit = 1m }",
        "  faults = [ { kind = degrade, target = node-a, delay = 5ms, for = 1s, at = \"wall 500ms\" } ]",
        "}") + "\n");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Rack.run(List.of("run", file.toString(), "--run-dir", dir.resolve("run").toString()),
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    String text = err.toString(StandardCharsets.UTF_8);
    assertEquals(3, status, text);
    assertTrue(text.contains("refused") && text.contains("netem"), text);
    assertEquals(List.of(), ProcessHandle.current().children().filter(ProcessHandle::isAlive)
        .map(p -> p.info().commandLine().orElse("?")).toList());
    assertEquals(List.of(), Netns.leftovers(Netns.SYSTEM, ProcessHandle.current().pid()));
  }

  private static boolean kernelHasNetem() throws Exception {
    String ns = "rf-" + ProcessHandle.current().pid() + "-~netem";
    Netns.SYSTEM.run(List.of("ip", "netns", "add", ns));
    try {
      Netns.SYSTEM.run(List.of("ip", "-n", ns, "link", "add", "n0", "type", "veth", "peer", "name", "n1"));
      return Netns.SYSTEM.run(List.of("ip", "netns", "exec", ns, "tc", "qdisc", "add", "dev", "n0", "root", "netem",
          "delay", "1ms")).status() == 0;
    } finally {
      Netns.SYSTEM.run(List.of("ip", "netns", "del", ns));
    }
  }
}
