package io.rackfabric.cluster.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A {@link RackCommand} whose flags picocli parses: a subclass is a {@link Command} with its
 * options as fields and does its work in {@link #call()}, printing to {@link #out} and
 * {@link #err}. Its name and summary come from the annotation.
 */
public abstract class PicocliRackCommand implements RackCommand, Callable<Integer> {

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
  boolean help;

  protected PrintStream out = System.out;
  protected PrintStream err = System.err;

  final void bind(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  /** Refuses {@code value} of {@code flag} outside [min, max], naming both. */
  public static void inRange(String flag, long value, long min, long max) throws UsageException {
    if (value < min || value > max) {
      throw new UsageException(flag + "=" + value + " not in [" + min + "," + max + "]");
    }
  }

  @Override
  public final String name() {
    return getClass().getAnnotation(Command.class).name();
  }

  @Override
  public final String summary() {
    return getClass().getAnnotation(Command.class).description()[0];
  }

  /** Runs this command through {@link Rack}, so that picocli parses {@code args}. */
  @Override
  public final int run(List<String> args, PrintStream out, PrintStream err) {
    List<String> all = new ArrayList<>();
    all.add(name());
    all.addAll(args);
    return Rack.run(all, out, err);
  }
}
