package io.rackfabric.loadtests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.cli.Rack;
import io.rackfabric.loadtests.harness.NodeProcesses;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code rack switchover} against a running rack: a generated Ladon rack of 2 CHs on three {@code
 * rack node} JVMs (node-switch, node-mmh with the MMH, node-bmh with the BMH) that boot their pair
 * by themselves; this JVM runs the command (its command class, as a user's process would) twice:
 * to the BMH and back to the MMH, each time as a short-lived operator member that leaves again.
 * The nodes are stopped on every path ({@link NodeProcesses#close}).
 */
@Tag("multi-jvm")
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class SwitchoverCommandMultiJvmTest {

  /** Only for awaitAssert: a local system, no member of the rack. */
  private static final ActorTestKit testKit = ActorTestKit.create("switchover-test",
      ConfigFactory.parseString("akka.actor.provider = local").withFallback(ConfigFactory.load()));

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  @Test
  void shouldSwitchOverThereAndBackWhenAskedFromTheCommandLine() throws Exception {
    Path runDir = Path.of("target", "multi-jvm", "switchover-cli-" + System.currentTimeMillis());
    Files.createDirectories(runDir);
    Path topology = runDir.resolve("ladon-2.conf");
    Outcome generated = rack("topology", "generate", "ladon", "--hosts", "2", "--placement", "three-node",
        "--out", topology.toString());
    assertEquals(0, generated.status(), generated.err());
    try (NodeProcesses nodes = new NodeProcesses(runDir)) {
      int seedPort = NodeProcesses.freePort();
      String seed = "127.0.0.1:" + seedPort;
      for (String node : List.of("node-switch", "node-mmh", "node-bmh")) {
        int port = node.equals("node-switch") ? seedPort : NodeProcesses.freePort();
        nodes.start(node, "node", List.of("--topology", topology.toString(), "--node", node, "--host", "127.0.0.1",
            "--port", "" + port, "--seed", seed, "--transport", "tcp",
            "--data-dir", runDir.resolve("data").toString()), "384m", Duration.ofSeconds(120));
      }
      // There: the pair boots by itself; the command waits for the boot, then asks the MMH.
      Outcome there = rack("switchover", "--topology", topology.toString(), "--seed", seed, "--transport", "tcp",
          "--to", "bmh", "--timeout", "2m");
      assertEquals(0, there.status(), there.out() + there.err());
      assertTrue(there.out().startsWith("switchover mmh -> bmh: "), there.out());
      assertTrue(there.out().contains("  before: mmh MASTER, bmh BACKUP\n"), there.out());
      assertTrue(there.out().contains("  now: mmh BACKUP, bmh MASTER\n"), there.out());
      // The hand-over crosses the MMH-BMH link (its latency, the replication link's 30 us) and the
      // answer crosses it back; the pause is the quiesce and the hand-over together.
      long linkNs = 30_000;
      long quiesce = figure(there.out(), "quiesce");
      long handOver = figure(there.out(), "hand_over");
      assertTrue(quiesce >= 0, there.out());
      assertTrue(handOver >= linkNs, there.out());
      assertEquals(quiesce + handOver, figure(there.out(), "control_plane_pause"), there.out());
      assertTrue(figure(there.out(), "total") >= quiesce + handOver + linkNs, there.out());

      // Back, with --json: the BMH is asked now, and the MMH is master again.
      Outcome back = rack("switchover", "--topology", topology.toString(), "--seed", seed, "--transport", "tcp",
          "--to", "mmh", "--timeout", "2m", "--json");
      assertEquals(0, back.status(), back.out() + back.err());
      JsonNode json = new ObjectMapper().readTree(back.out());
      assertEquals("bmh", json.get("from").asText(), back.out());
      assertEquals("mmh", json.get("to").asText(), back.out());
      assertEquals("mmh BACKUP, bmh MASTER", json.get("roles_before").asText(), back.out());
      assertEquals("mmh MASTER, bmh BACKUP", json.get("roles_after").asText(), back.out());
      JsonNode steps = json.get("breakdown");
      assertTrue(steps.get("hand_over_ns").asLong() >= linkNs, back.out());
      assertEquals(steps.get("quiesce_ns").asLong() + steps.get("hand_over_ns").asLong(),
          steps.get("control_plane_pause_ns").asLong(), back.out());
      assertTrue(steps.get("total_ns").asLong() >= steps.get("control_plane_pause_ns").asLong() + linkNs, back.out());
      assertTrue(steps.get("seq_nr").asLong() > 0, back.out());

      // Asked for what already holds: refused (exit 1), nothing switched.
      Outcome again = rack("switchover", "--topology", topology.toString(), "--seed", seed, "--transport", "tcp",
          "--to", "mmh", "--timeout", "2m");
      assertEquals(1, again.status(), again.out() + again.err());
      assertEquals("switchover refused: mmh is already the master (mmh MASTER, bmh BACKUP): nothing to switch\n"
          + "  roles: mmh MASTER, bmh BACKUP\n", again.out());

      // Each operator joined with its role only and left gracefully: the seed's node saw it removed
      // after Exiting, never downed (the last removal may reach its log a little after the command
      // returned; an operator may go from joining to leaving within one gossip, so its "up" is not
      // always logged there; and one whose system stopped before the removal was gossiped is marked
      // unreachable while Exiting, as Akka does, then removed all the same).
      testKit.createTestProbe().awaitAssert(Duration.ofSeconds(30), () -> {
        String switchLog = Files.readString(runDir.resolve("logs").resolve("node-switch.log"));
        assertEquals(3, count(switchLog, "joining with roles [dc-default, operator]"), switchLog);
        assertEquals(3, count(switchLog, "removed (was Exiting) with roles [dc-default, operator]"), switchLog);
        assertEquals(0, count(switchLog, "downed with roles [dc-default, operator]"), switchLog);
        return null;
      });
    }
  }

  /** A figure of the text breakdown, e.g. "  hand_over   30,000 ns  model", in ns. */
  private static long figure(String out, String name) {
    Matcher m = Pattern.compile("^  " + name + " +([0-9,]+) ns  model$", Pattern.MULTILINE).matcher(out);
    assertTrue(m.find(), () -> "no " + name + " in: " + out);
    return Long.parseLong(m.group(1).replace(",", ""));
  }

  private static int count(String text, String what) {
    return (int) text.lines().filter(l -> l.contains(what)).count();
  }

  private record Outcome(int status, String out, String err) {}

  private static Outcome rack(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Rack.run(new ArrayList<>(List.of(args)), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Outcome(status, out.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n"),
        err.toString(StandardCharsets.UTF_8));
  }
}
