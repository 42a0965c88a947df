package io.rackfabric.loadtests.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** Netns against a recording shell: what it runs, in which order, and what it does on failure. */
class NetnsTest {

  /** Records every command; fails those that {@code fails} matches; answers listings with canned text. */
  static final class FakeShell implements Netns.Shell {
    final List<String> ran = new ArrayList<>();
    Predicate<String> fails = c -> false;
    String netnsList = "";
    String linkList = "";

    @Override
    public Result run(List<String> command) {
      String c = String.join(" ", command);
      ran.add(c);
      if (fails.test(c)) {
        return new Result(2, "Operation not permitted");
      }
      if (c.equals("ip netns list")) {
        return new Result(0, netnsList);
      }
      if (c.equals("ip -o link show")) {
        return new Result(0, linkList);
      }
      return new Result(0, "");
    }
  }

  private static final PrintStream QUIET = new PrintStream(new ByteArrayOutputStream());
  private static final NetnsPlan PLAN = new NetnsPlan(70_000, List.of("node-mmh", "node-bmh"));

  @Test
  void shouldRefuseNamingTheCauseAndLeaveNoProbeWhenANamespaceCannotBeAdded() {
    FakeShell shell = new FakeShell();
    shell.fails = c -> c.startsWith("ip netns add");
    NetnsUnavailableException e = assertThrows(NetnsUnavailableException.class,
        () -> Netns.create(PLAN, false, shell, QUIET));
    assertTrue(e.getMessage().contains("needs root"), e.getMessage());
    assertTrue(e.getMessage().contains("Operation not permitted"), e.getMessage());
    assertTrue(e.getMessage().contains("refuses"), e.getMessage());
    assertTrue(shell.ran.stream().noneMatch(c -> c.contains("node-mmh")), "nothing of the run built: " + shell.ran);
  }

  @Test
  void shouldRefuseAndRemoveTheProbeWhenADegradeNeedsNetemAndTheKernelHasNone() {
    FakeShell shell = new FakeShell();
    shell.fails = c -> c.contains("netem");
    NetnsUnavailableException e = assertThrows(NetnsUnavailableException.class,
        () -> Netns.create(PLAN, true, shell, QUIET));
    assertTrue(e.getMessage().contains("netem"), e.getMessage());
    assertEquals("ip netns del rf-70000-~probe", shell.ran.get(shell.ran.size() - 1));
  }

  @Test
  void shouldRefuseWhenIpIsNotInstalled() {
    Netns.Shell missing = command -> {
      throw new IOException("Cannot run program \"ip\": error=2, No such file or directory");
    };
    NetnsUnavailableException e = assertThrows(NetnsUnavailableException.class,
        () -> Netns.create(PLAN, false, missing, QUIET));
    assertTrue(e.getMessage().contains("cannot run ip"), e.getMessage());
  }

  @Test
  void shouldTearDownWhatItBuiltWhenBuildingFailsHalfWay() {
    FakeShell shell = new FakeShell();
    shell.fails = c -> c.startsWith("ip -n rf-70000-node-mmh link add to1");
    IOException e = assertThrows(IOException.class, () -> Netns.create(PLAN, false, shell, QUIET));
    assertTrue(e.getMessage().contains("link add to1"), e.getMessage());
    List<String> tail = shell.ran.subList(shell.ran.size() - 4, shell.ran.size());
    assertEquals(PLAN.teardown().stream().map(c -> String.join(" ", c)).toList(), tail);
  }

  @Test
  void shouldBuildCutHealAndTearDownOnceWhenClosedTwice() throws Exception {
    FakeShell shell = new FakeShell();
    Netns netns = Netns.create(PLAN, false, shell, QUIET);
    assertTrue(shell.ran.containsAll(PLAN.setup().stream().map(c -> String.join(" ", c)).toList()));
    netns.cut("node-mmh", "node-bmh");
    netns.heal("node-bmh", "node-mmh");
    int before = shell.ran.size();
    netns.close();
    netns.close();
    assertEquals(PLAN.teardown().size(), shell.ran.size() - before, "torn down once");
  }

  @Test
  void shouldSweepOnlyWhatOwnersNoLongerAliveLeftWhenStarting() throws Exception {
    FakeShell shell = new FakeShell();
    String deadLink = "rf" + Long.toString(111, 36) + "n0";
    String liveLink = "rf" + Long.toString(222, 36) + "n0";
    shell.netnsList = "rf-111-node-a (id: 3)\nrf-222-node-a (id: 4)\nsomeone-elses\n";
    shell.linkList = "1: lo: <LOOPBACK,UP> mtu 65536\n7: " + deadLink + "@if2: <BROADCAST> mtu 1500\n8: " + liveLink
        + "@if2: <BROADCAST> mtu 1500\n4: eth0: <UP> mtu 1400\n";
    List<String> removed = Netns.sweepStale(shell, pid -> pid == 222);
    assertEquals(List.of("rf-111-node-a", deadLink), removed);
    assertTrue(shell.ran.contains("ip netns del rf-111-node-a"));
    assertTrue(shell.ran.stream().noneMatch(c -> c.contains("rf-222") || c.contains("someone") || c.contains("eth0")
        || c.contains(liveLink)), shell.ran.toString());
    assertEquals(List.of("rf-222-node-a", liveLink), Netns.leftovers(shell, 222));
  }
}
