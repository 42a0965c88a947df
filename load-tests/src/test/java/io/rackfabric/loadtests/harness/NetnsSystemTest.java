package io.rackfabric.loadtests.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The real thing, with {@code ip} and {@code tc} (needs root, as runs on this machine have; tagged
 * with the multi-JVM tests, which need the same machine). A TCP connect to a port nobody listens on
 * is refused at once when the peer is reachable and times out when the network between is cut.
 */
@Tag("multi-jvm")
class NetnsSystemTest {

  private static final PrintStream QUIET = new PrintStream(new ByteArrayOutputStream());

  /** Tries a TCP connect from inside {@code from}'s namespace: "refused", or "silent" when nothing came back. */
  private static String probe(NetnsPlan plan, String from, String to) throws Exception {
    List<String> cmd = new java.util.ArrayList<>(plan.execPrefix(from));
    cmd.addAll(List.of("timeout", "2", "bash", "-c", "echo > /dev/tcp/" + plan.node(to).address() + "/9"));
    Netns.Shell.Result r = Netns.SYSTEM.run(cmd);
    if (r.status() == 124) {
      return "silent";
    }
    return r.output().contains("refused") ? "refused" : "status " + r.status() + ": " + r.output();
  }

  @Test
  void shouldCutOnlyThePairAskedAndLeaveNothingBehindWhenClosed() throws Exception {
    long pid = ProcessHandle.current().pid();
    NetnsPlan plan = new NetnsPlan(pid, List.of("a", "b", "c"));
    try (Netns netns = Netns.create(plan, false, Netns.SYSTEM, QUIET)) {
      assertEquals("refused", probe(plan, "a", "b"), "a reaches b");
      netns.cut("a", "b");
      assertEquals("silent", probe(plan, "a", "b"), "cut: a's frames to b vanish");
      assertEquals("silent", probe(plan, "b", "a"), "and b's to a");
      assertEquals("refused", probe(plan, "c", "b"), "c still reaches b");
      assertEquals("refused", probe(plan, "a", "c"), "a still reaches c");
      netns.heal("a", "b");
      assertEquals("refused", probe(plan, "a", "b"), "healed");
      netns.degrade("c", new NetnsPlan.Degradation(0, 0, 10_000_000));
      assertEquals("refused", probe(plan, "c", "a"), "paced, not cut");
      netns.restore("c");
    }
    assertEquals(List.of(), Netns.leftovers(Netns.SYSTEM, pid));
  }

  @Test
  void shouldSweepANamespaceADeadRunLeftWhenTheNextRunStarts() throws Exception {
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    long dead = gone.pid();
    String ns = "rf-" + dead + "-crashed";
    assertEquals(0, Netns.SYSTEM.run(List.of("ip", "netns", "add", ns)).status());
    List<String> removed = Netns.sweepStale(Netns.SYSTEM,
        p -> ProcessHandle.of(p).map(ProcessHandle::isAlive).orElse(false));
    assertTrue(removed.contains(ns), removed.toString());
    assertEquals(List.of(), Netns.leftovers(Netns.SYSTEM, dead));
  }
}
