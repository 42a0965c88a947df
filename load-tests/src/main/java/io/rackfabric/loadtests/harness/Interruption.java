package io.rackfabric.loadtests.harness;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * What a command leaves when its JVM is stopped under it: Ctrl-C (SIGINT) or SIGTERM. Both are
 * handled alike by a JVM shutdown hook: the command says "interrupted" and each result it had
 * registered ({@link #onInterrupt}) is written as a partial one, marked unfinished. The JVM then
 * exits as the signal asks, 128 + its number (130 for SIGINT, 143 for SIGTERM), as a shell reports
 * a command the signal stopped; Akka's coordinated shutdown (closing the journal) and the node
 * reaper ({@link NodeProcesses}) run in their own hooks at the same time.
 *
 * <p>A result is written once: either whole by the run ({@link Partial#complete}) or partial by
 * the hook, never both, and never a partial one over a whole one (they share one lock).
 */
public final class Interruption implements AutoCloseable {

  /** Writes a result file (atomically: see io.rackfabric.loadtests.report.AtomicFiles). */
  @FunctionalInterface
  public interface Write {
    void run() throws Exception;
  }

  /** A result to write partial on interruption, until the run writes it whole. */
  public final class Partial {
    private final Write partial;

    private Partial(Write partial) {
      this.partial = partial;
    }

    /**
     * Writes the whole result in place of the partial one, unless an interruption came first.
     *
     * @return false when the JVM is being stopped and the partial result was written instead
     */
    public boolean complete(Write whole) throws Exception {
      synchronized (lock) {
        if (interrupted) {
          return false;
        }
        partials.remove(this);
        whole.run();
        return true;
      }
    }

    /** Drops the partial result: nothing to write for this run any more (it failed, say). */
    public void cancel() {
      synchronized (lock) {
        partials.remove(this);
      }
    }
  }

  private final String command;
  private final PrintStream err;
  private final Object lock = new Object();
  private final List<Partial> partials = new ArrayList<>();
  private final Thread hook;
  private boolean interrupted;

  private Interruption(String command, PrintStream err, boolean hooked) {
    this.command = command;
    this.err = err;
    this.hook = hooked ? new Thread(this::interrupt, "rack-interrupted") : null;
    if (hook != null) {
      Runtime.getRuntime().addShutdownHook(hook);
    }
  }

  /** Watches for the JVM's shutdown until {@link #close}; {@code command} names it in messages. */
  public static Interruption install(String command, PrintStream err) {
    return new Interruption(command, err, true);
  }

  /** One that is never interrupted: for a run inside a longer-lived program (a test, a bench). */
  public static Interruption none() {
    return new Interruption("", System.err, false);
  }

  /** Registers a result to write partial if the JVM is stopped before {@link Partial#complete}. */
  public Partial onInterrupt(Write partial) {
    Partial p = new Partial(partial);
    synchronized (lock) {
      partials.add(p);
    }
    return p;
  }

  /** True once the JVM has begun to stop under the command. */
  public boolean interrupted() {
    synchronized (lock) {
      return interrupted;
    }
  }

  /** Runs in the shutdown hook; also callable directly, as a test of what an interruption writes. */
  void interrupt() {
    synchronized (lock) {
      interrupted = true;
      err.println(command + ": interrupted");
      for (Partial p : partials) {
        try {
          p.partial.run();
        } catch (Exception | LinkageError e) {
          err.println(command + ": could not write a partial result: " + e);
        }
      }
      partials.clear();
      err.flush();
    }
  }

  @Override
  public void close() {
    if (hook == null) {
      return;
    }
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // The hook is running or about to: it writes what is registered.
    }
  }
}
