package io.rackfabric.loadtests.scenario;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Freezes a node JVM of a multi-JVM run (SIGSTOP) for a while of wall time from outside the run,
 * as a starved machine would, when the run's progress prints a line starting with a given text:
 * a progress stream to hand the run, which also copies everything to standard out.
 */
final class FrozenNode implements AutoCloseable {

  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
  private final CompletableFuture<Long> frozen = new CompletableFuture<>();
  private final PrintStream progress;

  /** Freezes {@code node} for {@code seconds} when a progress line starts with {@code lineStart}. */
  FrozenNode(String node, String lineStart, long seconds) {
    OutputStream watch = new OutputStream() {
      private final StringBuilder line = new StringBuilder();

      @Override
      public void write(int b) {
        System.out.write(b);
        if (b != '\n') {
          line.append((char) b);
          return;
        }
        if (line.toString().startsWith(lineStart) && !frozen.isDone()) {
          long pid = nodePid(node);
          signal("STOP", pid);
          frozen.complete(pid);
          timer.schedule(() -> signal("CONT", pid), seconds, TimeUnit.SECONDS);
        }
        line.setLength(0);
      }
    };
    this.progress = new PrintStream(watch, true);
  }

  PrintStream progress() {
    return progress;
  }

  /** Whether the node was frozen during the run. */
  boolean wasFrozen() {
    return frozen.isDone();
  }

  /** Waits for the node to be let go (it is, even when the run failed). */
  @Override
  public void close() throws InterruptedException {
    timer.shutdown();
    timer.awaitTermination(10, TimeUnit.SECONDS);
  }

  /** The process id of this test's node JVM {@code node} (a child started with --node NODE). */
  static long nodePid(String node) {
    // /proc has the whole command line; ProcessHandle.Info may not (a long class path).
    return ProcessHandle.current().descendants().filter(p -> {
      try {
        String cmd = Files.readString(Path.of("/proc", Long.toString(p.pid()), "cmdline")).replace('\0', ' ');
        return cmd.contains(" --node " + node + " ");
      } catch (java.io.IOException e) {
        return false;
      }
    }).findFirst().orElseThrow(() -> new AssertionError("no JVM of " + node)).pid();
  }

  static void signal(String signal, long pid) {
    try {
      new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start().waitFor();
    } catch (Exception e) {
      throw new IllegalStateException("kill -" + signal + " " + pid + ": " + e, e);
    }
  }
}
