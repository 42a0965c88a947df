package io.rackfabric.loadtests.harness;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;

/**
 * Builds the network of a {@link NetnsPlan} with {@code ip} and {@code tc}, applies its cuts and
 * degradations, and always takes it down again: on {@link #close}, when building it fails half
 * way, and from a shutdown hook if this JVM is interrupted. Before building, it checks that it can
 * build at all, and removes what runs of owners no longer alive left behind (a JVM killed before
 * its hook ran): without root, {@code ip netns} or the qdiscs the faults need it throws {@link
 * NetnsUnavailableException} and has changed nothing of this run's.
 */
public final class Netns implements AutoCloseable {

  /** Runs one command line. */
  public interface Shell {

    /** The command's exit status and its output (stdout and stderr together). */
    record Result(int status, String output) {}

    /** @throws IOException when the command cannot be started at all (not installed) */
    Result run(List<String> command) throws IOException, InterruptedException;
  }

  /** Runs commands as child processes; one that takes longer than 30 s counts as failed. */
  public static final Shell SYSTEM = command -> {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return new Shell.Result(-1, "timed out after 30 s");
    }
    return new Shell.Result(p.exitValue(), new String(out, StandardCharsets.UTF_8).trim());
  };

  private final NetnsPlan plan;
  private final Shell shell;
  private final PrintStream progress;
  private final Thread hook;
  private boolean down;

  private Netns(NetnsPlan plan, Shell shell, PrintStream progress) {
    this.plan = plan;
    this.shell = shell;
    this.progress = progress;
    this.hook = new Thread(this::teardown, "rack-netns-teardown");
  }

  /**
   * Checks the capability, sweeps stale runs, builds the plan's network.
   *
   * @param needsNetem a fault of the run degrades with delay or loss (the netem qdisc)
   * @throws NetnsUnavailableException when this machine cannot do it; nothing of this run is left
   * @throws IOException when building fails although the check passed; what was built is removed
   */
  public static Netns create(NetnsPlan plan, boolean needsNetem, Shell shell, PrintStream progress)
      throws NetnsUnavailableException, IOException, InterruptedException {
    check(shell, plan.ownerPid(), needsNetem);
    List<String> swept = sweepStale(shell, pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
    if (!swept.isEmpty()) {
      progress.println("  removed what crashed runs left: " + swept);
    }
    Netns netns = new Netns(plan, shell, progress);
    Runtime.getRuntime().addShutdownHook(netns.hook);
    try {
      for (List<String> cmd : plan.setup()) {
        netns.mustRun(cmd);
      }
    } catch (IOException | InterruptedException | RuntimeException e) {
      netns.close();
      throw e;
    }
    progress.printf("  network namespaces: driver %s, %s%n", plan.driverAddress(),
        plan.nodes().stream().map(n -> n.node() + " " + n.address() + " in " + n.namespace()).toList());
    return netns;
  }

  public NetnsPlan plan() {
    return plan;
  }

  /**
   * Whether namespaces can be built here, by building a throwaway one: a namespace, a veth pair in
   * it, the token bucket a cut uses and, with {@code needsNetem}, a netem qdisc.
   */
  static void check(Shell shell, long ownerPid, boolean needsNetem) throws NetnsUnavailableException,
      InterruptedException {
    String probe = "rf-" + ownerPid + "-~probe";
    String why = "network = namespaces needs root, iproute2 (ip, tc) and a kernel with network namespaces and veth;"
        + " the run refuses rather than run without its partitions";
    try {
      Shell.Result r = shell.run(List.of("ip", "netns", "add", probe));
      if (r.status() != 0) {
        throw new NetnsUnavailableException(why + ": 'ip netns add " + probe + "' failed: " + r.output());
      }
      try {
        r = shell.run(List.of("ip", "-n", probe, "link", "add", "p0", "type", "veth", "peer", "name", "p1"));
        if (r.status() != 0) {
          throw new NetnsUnavailableException(why + ": no veth pair: " + r.output());
        }
        r = shell.run(List.of("ip", "netns", "exec", probe, "tc", "qdisc", "add", "dev", "p0", "root", "tbf", "rate",
            "8bit", "burst", "1", "limit", "1"));
        if (r.status() != 0) {
          throw new NetnsUnavailableException(why + ": no tbf qdisc, which cuts a partition: " + r.output());
        }
        if (needsNetem) {
          r = shell.run(List.of("ip", "netns", "exec", probe, "tc", "qdisc", "add", "dev", "p1", "root", "netem",
              "delay", "1ms"));
          if (r.status() != 0) {
            throw new NetnsUnavailableException("a degrade with delay or loss needs the netem qdisc, and this kernel"
                + " has none ('tc qdisc add ... netem' said: " + r.output() + "); a degrade with rate only works"
                + " without it");
          }
        }
      } finally {
        shell.run(List.of("ip", "netns", "del", probe));
      }
    } catch (IOException e) {
      throw new NetnsUnavailableException(why + ": cannot run ip: " + e.getMessage());
    }
  }

  /**
   * Removes the namespaces and root-side veths of rack runs whose owner is not alive, and returns
   * their names. Those of live owners (a concurrent run) are left alone.
   */
  public static List<String> sweepStale(Shell shell, LongPredicate alive) throws IOException, InterruptedException {
    List<String> removed = new ArrayList<>();
    for (String ns : namespaces(shell)) {
      long owner = NetnsPlan.ownerOfNamespace(ns);
      if (owner > 0 && !alive.test(owner) && shell.run(List.of("ip", "netns", "del", ns)).status() == 0) {
        removed.add(ns);
      }
    }
    for (String link : rootLinks(shell)) {
      long owner = NetnsPlan.ownerOfRootLink(link);
      if (owner > 0 && !alive.test(owner) && shell.run(List.of("ip", "link", "del", link)).status() == 0) {
        removed.add(link);
      }
    }
    return removed;
  }

  /** Namespaces and root-side veths that a run of {@code ownerPid} has left now (none after close). */
  public static List<String> leftovers(Shell shell, long ownerPid) throws IOException, InterruptedException {
    List<String> left = new ArrayList<>();
    namespaces(shell).stream().filter(n -> NetnsPlan.ownerOfNamespace(n) == ownerPid).forEach(left::add);
    rootLinks(shell).stream().filter(n -> NetnsPlan.ownerOfRootLink(n) == ownerPid).forEach(left::add);
    return left;
  }

  /** Every namespace name ({@code ip netns list} prints "name" or "name (id: N)"). */
  static List<String> namespaces(Shell shell) throws IOException, InterruptedException {
    Shell.Result r = shell.run(List.of("ip", "netns", "list"));
    List<String> out = new ArrayList<>();
    if (r.status() != 0) {
      return out;
    }
    for (String line : r.output().split("\n")) {
      String name = line.trim().split("\\s+")[0];
      if (!name.isEmpty()) {
        out.add(name);
      }
    }
    return out;
  }

  /** Every link name of the root namespace ({@code ip -o link show}: "3: name@peer: <...> ..."). */
  static List<String> rootLinks(Shell shell) throws IOException, InterruptedException {
    Shell.Result r = shell.run(List.of("ip", "-o", "link", "show"));
    List<String> out = new ArrayList<>();
    if (r.status() != 0) {
      return out;
    }
    for (String line : r.output().split("\n")) {
      String[] parts = line.split(":\\s+", 3);
      if (parts.length >= 2) {
        String name = parts[1];
        int at = name.indexOf('@');
        out.add(at >= 0 ? name.substring(0, at) : name);
      }
    }
    return out;
  }

  /** Cuts the network between two nodes (both directions), keeping every other pair's. */
  public synchronized void cut(String a, String b) throws IOException, InterruptedException {
    for (List<String> cmd : plan.cut(a, b)) {
      mustRun(cmd);
    }
  }

  /** Heals a {@link #cut}. */
  public synchronized void heal(String a, String b) throws IOException, InterruptedException {
    for (List<String> cmd : plan.heal(a, b)) {
      mustRun(cmd);
    }
  }

  /** Degrades every link out of {@code node}. */
  public synchronized void degrade(String node, NetnsPlan.Degradation d) throws IOException, InterruptedException {
    for (List<String> cmd : plan.degrade(node, d)) {
      mustRun(cmd);
    }
  }

  /** Undoes {@link #degrade}. */
  public synchronized void restore(String node) throws IOException, InterruptedException {
    for (List<String> cmd : plan.restore(node)) {
      mustRun(cmd);
    }
  }

  private void mustRun(List<String> cmd) throws IOException, InterruptedException {
    Shell.Result r = shell.run(cmd);
    if (r.status() != 0) {
      throw new IOException("'" + String.join(" ", cmd) + "' failed with status " + r.status() + ": " + r.output());
    }
  }

  /** Takes everything down; each step is tried even when an earlier one failed. Idempotent. */
  synchronized void teardown() {
    if (down) {
      return;
    }
    down = true;
    List<String> failed = new ArrayList<>();
    for (List<String> cmd : plan.teardown()) {
      try {
        Shell.Result r = shell.run(cmd);
        if (r.status() != 0) {
          failed.add(String.join(" ", cmd) + ": " + r.output());
        }
      } catch (IOException e) {
        failed.add(String.join(" ", cmd) + ": " + e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failed.add(String.join(" ", cmd) + ": interrupted");
      }
    }
    if (!failed.isEmpty()) {
      // Already gone is fine (a node's veths go with its namespace); anything else is worth a line.
      failed.removeIf(f -> f.contains("Cannot find device") || f.contains("No such file"));
      if (!failed.isEmpty()) {
        progress.println("  network teardown: " + failed);
      }
    }
  }

  @Override
  public void close() {
    teardown();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException alreadyShuttingDown) {
      // the hook is running or ran: nothing left to remove
    }
  }
}
