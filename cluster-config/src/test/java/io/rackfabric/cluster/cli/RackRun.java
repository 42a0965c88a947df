package io.rackfabric.cluster.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Runs {@code rack ARGS} through the dispatcher, as the command line does, and keeps what it printed. */
final class RackRun {

  private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
  final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
  final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

  /** The exit status of {@code rack} with {@code args}. */
  int run(List<String> args) {
    return Rack.run(args, out, err);
  }

  /** {@code rack COMMAND ARGS...}. */
  int run(String command, String... args) {
    return run(prepend(command, args));
  }

  static List<String> prepend(String command, String... args) {
    java.util.ArrayList<String> all = new java.util.ArrayList<>();
    all.add(command);
    all.addAll(List.of(args));
    return all;
  }

  String out() {
    return outBytes.toString(StandardCharsets.UTF_8);
  }

  String err() {
    return errBytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
  }

  void resetOut() {
    outBytes.reset();
  }

  void resetErr() {
    errBytes.reset();
  }
}
