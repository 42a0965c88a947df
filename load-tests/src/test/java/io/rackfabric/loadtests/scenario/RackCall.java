package io.rackfabric.loadtests.scenario;

import io.rackfabric.cluster.cli.Rack;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Runs {@code rack} in this JVM as a user would from a shell, keeping what the last call printed. */
final class RackCall {

  /** A short scenario on a rack with a control plane, so that a run of it keeps a journal. */
  static final String JOURNALED_SCENARIO = String.join("\n",
      "scenario {",
      "  topology = ladon-testbed",
      "  run { duration = 10us, wall-limit = 1m }",
      "}") + "\n";

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  /** The exit code of {@code rack ARGS}. */
  int run(String... args) {
    out.reset();
    err.reset();
    return Rack.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  String err() {
    return err.toString(StandardCharsets.UTF_8);
  }
}
