package io.rackfabric.loadtests.cli;

import io.rackfabric.cluster.cli.Rack;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Runs {@code rack ARGS} through the dispatcher, as the command line does, and keeps what the
 * last run printed (load-tests' commands included).
 */
public final class RackRun {

  private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();

  /** The exit status of {@code rack ARGS}; what it printed replaces the last run's. */
  public int run(String... args) {
    outBytes.reset();
    errBytes.reset();
    return Rack.run(List.of(args), new PrintStream(outBytes, true, StandardCharsets.UTF_8),
        new PrintStream(errBytes, true, StandardCharsets.UTF_8));
  }

  public String out() {
    return outBytes.toString(StandardCharsets.UTF_8);
  }

  public String err() {
    return errBytes.toString(StandardCharsets.UTF_8);
  }
}
