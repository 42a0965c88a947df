package io.rackfabric.loadtests.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Starts node JVMs ({@code rack node ...} in a child process with this JVM's classpath and the
 * Aeron flags), waits until each prints READY, and stops every one of them again: on {@link
 * #close}, and from a shutdown hook if this JVM is interrupted. Each child's output goes to a log
 * file in the run folder's {@code logs} ({@code RUN/logs/NODE.log}, beside the driver's, {@link RunLogs}).
 */
public final class NodeProcesses implements AutoCloseable {

  /**
   * The JVM flags Aeron and Agrona need on Java 17 (STACK-NOTES), and a common fork-join pool of
   * at least two: with one (what two cores give), every asynchronous completion stage runs on a
   * thread of its own, started and stopped for it (tens of thousands a second under Akka's asks).
   */
  public static final List<String> JVM_OPENS = List.of(
      "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
      "--add-opens", "java.base/java.nio=ALL-UNNAMED",
      "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
      "-Djava.util.concurrent.ForkJoinPool.common.parallelism=2");

  /** One started child. */
  public record Node(String name, Process process, Path log) {}

  /** How a child was started, to start it again the same way. */
  private record Launch(String command, List<String> rackArgs, Map<String, String> properties, String heap,
      Duration timeout, List<String> prefix) {}

  private final Path runDir;
  private final List<Node> nodes = new ArrayList<>();
  private final Map<String, Launch> launches = new ConcurrentHashMap<>();
  private final Set<String> paused = ConcurrentHashMap.newKeySet();
  private Node mediaDriver;
  private final Thread hook;

  public NodeProcesses(Path runDir) throws IOException {
    this.runDir = Files.createDirectories(runDir);
    this.hook = new Thread(this::stopAll, "rack-node-reaper");
    Runtime.getRuntime().addShutdownHook(hook);
  }

  public Path runDir() {
    return runDir;
  }

  public List<Node> nodes() {
    return List.copyOf(nodes);
  }

  /**
   * Starts {@code rack node} with the given arguments and returns once it printed READY.
   *
   * @param heap the child's -Xmx, e.g. "256m"
   */
  public Node start(String name, List<String> rackArgs, String heap, Duration timeout) throws IOException, InterruptedException {
    return start(name, "node", rackArgs, heap, timeout);
  }

  /** Starts {@code rack COMMAND ARGS} (a command that prints READY like {@code rack node}). */
  public Node start(String name, String command, List<String> rackArgs, String heap, Duration timeout)
      throws IOException, InterruptedException {
    return start(name, command, rackArgs, Map.of(), heap, timeout);
  }

  /** @param properties system properties for the child (configuration overrides), name to value */
  public Node start(String name, String command, List<String> rackArgs, Map<String, String> properties, String heap,
      Duration timeout) throws IOException, InterruptedException {
    return start(name, command, rackArgs, properties, heap, timeout, List.of());
  }

  /**
   * @param prefix what runs the JVM, in front of {@code java}: e.g. {@code ip netns exec NS}, which
   *     enters the namespace and then becomes the JVM (same pid, so kill and pause reach the JVM)
   */
  public Node start(String name, String command, List<String> rackArgs, Map<String, String> properties, String heap,
      Duration timeout, List<String> prefix) throws IOException, InterruptedException {
    Launch launch = new Launch(command, List.copyOf(rackArgs), Map.copyOf(properties), heap, timeout, List.copyOf(prefix));
    launches.put(name, launch);
    return launch(name, launch, name + ".log");
  }

  /**
   * Starts node {@code name} again, after its JVM died (a kill), exactly as it was started: the same
   * arguments, so the same port and data folder (its journal). Its output goes to
   * {@code NODE.restart-K.log} beside the first log. Returns once it printed READY.
   */
  public Node restart(String name) throws IOException, InterruptedException {
    Launch launch = launches.get(name);
    if (launch == null) {
      throw new IllegalArgumentException("no node '" + name + "' was started (nodes: " + launches.keySet() + ")");
    }
    long starts = nodes.stream().filter(n -> n.name().equals(name)).count();
    for (Node n : nodes) {
      if (n.name().equals(name) && n.process().isAlive()) {
        throw new IllegalStateException("node '" + name + "' is running (pid " + n.process().pid()
            + "): only a node whose JVM died is started again");
      }
    }
    return launch(name, launch, name + ".restart-" + starts + ".log");
  }

  private Node launch(String name, Launch launch, String logName) throws IOException, InterruptedException {
    String command = launch.command();
    List<String> rackArgs = launch.rackArgs();
    Map<String, String> properties = launch.properties();
    String heap = launch.heap();
    Duration timeout = launch.timeout();
    List<String> prefix = launch.prefix();
    List<String> cmd = new ArrayList<>(prefix);
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(JVM_OPENS);
    cmd.add("-Xmx" + heap);
    cmd.add("-XX:+UseSerialGC");
    cmd.add("-Dlogback.configurationFile=rack-node-logback.xml");
    properties.forEach((k, v) -> cmd.add("-D" + k + "=" + v));
    cmd.add("-cp");
    // Under Surefire the JVM's own class path may be a manifest-only jar; Surefire names the real one.
    cmd.add(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
    cmd.add("io.rackfabric.cluster.cli.Rack");
    cmd.add(command);
    cmd.addAll(rackArgs);
    Path log = Files.createDirectories(runDir.resolve(RunLogs.DIR)).resolve(logName);
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    Node node = new Node(name, p, log);
    nodes.add(node);
    CountDownLatch ready = new CountDownLatch(1);
    pump(p, log, line -> {
      if (line.startsWith("READY " + name)) {
        ready.countDown();
      }
    });
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!ready.await(100, TimeUnit.MILLISECONDS)) {
      if (!p.isAlive()) {
        throw new IOException("node " + name + " exited with status " + p.exitValue() + " before it was ready; see " + log);
      }
      if (System.nanoTime() > deadline) {
        throw new IOException("node " + name + " was not ready within " + timeout + "; see " + log);
      }
    }
    return node;
  }

  /** Copies a child's output into its log file on a daemon thread, watching each line. */
  private static void pump(Process p, Path log, Consumer<String> watch) throws IOException {
    PrintWriter w = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8), true);
    Thread t = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          w.println(line);
          watch.accept(line);
        }
      } catch (IOException e) {
        w.println("[log pump stopped: " + e.getMessage() + "]");
      } finally {
        w.close();
      }
    }, "log-" + log.getFileName());
    t.setDaemon(true);
    t.start();
  }

  /**
   * Starts one Aeron media driver process that every JVM of the run shares (instead of one
   * embedded driver per JVM), in SHARED threading mode with a backoff idle strategy so that it
   * does not spin a core. Returns once the driver's directory is ready. It is stopped last.
   */
  public void startMediaDriver(Path aeronDir, Duration timeout) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(JVM_OPENS);
    cmd.add("-Xmx64m");
    cmd.add("-XX:+UseSerialGC");
    cmd.add("-Daeron.dir=" + aeronDir);
    cmd.add("-Daeron.dir.delete.on.start=true");
    cmd.add("-Daeron.dir.delete.on.shutdown=true");
    cmd.add("-Daeron.threading.mode=SHARED");
    cmd.add("-Daeron.shared.idle.strategy=backoff");
    cmd.add("-Daeron.print.configuration=false");
    cmd.add("-cp");
    cmd.add(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
    cmd.add("io.aeron.driver.MediaDriver");
    Path log = Files.createDirectories(runDir.resolve(RunLogs.DIR)).resolve("media-driver.log");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    mediaDriver = new Node("media-driver", p, log);
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!Files.exists(aeronDir.resolve("cnc.dat"))) {
      if (!p.isAlive()) {
        throw new IOException("the media driver exited with status " + p.exitValue() + "; see " + log);
      }
      if (System.nanoTime() > deadline) {
        throw new IOException("the media driver was not ready within " + timeout + "; see " + log);
      }
      Thread.sleep(20); // waiting for another process to create a file
    }
  }

  /**
   * Kills one node at once, as a crash would (SIGKILL), and waits (a few seconds at most) until its
   * JVM is gone, so that a restart finds its port and its data folder free.
   */
  public void kill(String name) {
    for (Node n : named(name)) {
      try {
        n.process().destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /**
   * Freezes one node (SIGSTOP), as a long garbage-collection pause or a hung host would: it
   * neither sends nor answers until {@link #resume}. Java has no signal API, so kill(1) sends it.
   */
  public void pause(String name) throws IOException {
    for (Node n : named(name)) {
      signal(n, "STOP");
      paused.add(n.name());
    }
  }

  /** Lets a paused node run on (SIGCONT). */
  public void resume(String name) throws IOException {
    for (Node n : named(name)) {
      signal(n, "CONT");
      paused.remove(n.name());
    }
  }

  /** Whether {@code name} is paused now. */
  public boolean isPaused(String name) {
    return paused.contains(name);
  }

  private List<Node> named(String name) {
    List<Node> found = nodes.stream().filter(n -> n.name().equals(name) && n.process().isAlive()).toList();
    if (found.isEmpty()) {
      throw new IllegalArgumentException("no running node '" + name + "'");
    }
    return found;
  }

  private static void signal(Node n, String signal) throws IOException {
    try {
      Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(n.process().pid()))
          .redirectErrorStream(true).start();
      String out = new String(kill.getInputStream().readAllBytes()).trim();
      if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        throw new IOException("kill -" + signal + " " + n.process().pid() + " (node " + n.name() + ") failed: " + out);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while signalling node " + n.name(), e);
    }
  }

  /** Stops every node: SIGTERM (graceful leave), then SIGKILL for any still alive after 10 s. */
  public void stopNodes() {
    for (Node n : nodes) {
      if (paused.remove(n.name())) {
        try {
          signal(n, "CONT"); // a stopped process would sit on its SIGTERM until the SIGKILL
        } catch (IOException e) {
          n.process().destroyForcibly();
        }
      }
    }
    for (Node n : nodes) {
      n.process().destroy();
    }
    nodes.forEach(NodeProcesses::reap);
  }

  /** Stops the shared media driver, once nothing uses it any more. */
  public void stopMediaDriver() {
    if (mediaDriver != null) {
      mediaDriver.process().destroy();
      reap(mediaDriver);
    }
  }

  /** Stops everything this harness started. */
  public void stopAll() {
    stopNodes();
    stopMediaDriver();
  }

  private static void reap(Node n) {
    try {
      if (!n.process().waitFor(10, TimeUnit.SECONDS)) {
        n.process().destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      n.process().destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    stopAll();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException alreadyShuttingDown) {
      // the hook is running or ran: nothing left to remove
    }
  }

  /** A port free for both UDP (Aeron) and TCP on loopback at the time of asking. */
  public static int freePort() throws IOException {
    for (int attempt = 0; attempt < 50; attempt++) {
      int port;
      try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        port = s.getLocalPort();
      }
      try (DatagramSocket d = new DatagramSocket(port, InetAddress.getLoopbackAddress())) {
        return port;
      } catch (IOException taken) {
        // the UDP side of this port is in use; try another
      }
    }
    throw new IOException("no free loopback port found");
  }
}
