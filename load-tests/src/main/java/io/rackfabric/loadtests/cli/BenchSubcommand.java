package io.rackfabric.loadtests.cli;

import io.rackfabric.cluster.cli.UsageException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.UnmatchedArgumentException;
import picocli.CommandLine.Unmatched;

/**
 * One benchmark of {@code rack bench}: picocli parses its flags into the subclass's fields, then
 * {@link #run} checks them and runs it. A flag that belongs to another benchmark is named as such
 * rather than left unknown, so that a mixed-up command line says what it mixed up.
 */
abstract class BenchSubcommand implements Callable<Integer> {

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
  boolean help;

  @ParentCommand
  BenchRackCommand bench;

  @Spec
  CommandSpec spec;

  // Collected rather than refused by picocli, so that call() can tell another benchmark's flag from a typo.
  @Unmatched
  List<String> unmatched = new ArrayList<>();

  /** Runs the benchmark with the parsed flags; throws {@link UsageException} for a bad value before anything runs. */
  abstract int run(PrintStream out) throws Exception;

  @Override
  public final Integer call() throws Exception {
    bench.refuseFlagsBefore(spec.name());
    if (!unmatched.isEmpty()) {
      String first = unmatched.get(0);
      String flag = first.contains("=") ? first.substring(0, first.indexOf('=')) : first;
      if (flag.startsWith("--") && bench.anyBenchmarkHas(flag)) {
        throw new UsageException(flag + " does not apply to 'bench " + spec.name() + "' (its flags: "
            + spec.options().stream().filter(o -> !o.usageHelp()).map(OptionSpec::longestName)
                .collect(Collectors.joining(", ")) + ")");
      }
      throw new UnmatchedArgumentException(spec.commandLine(), unmatched.subList(0, 1));
    }
    return run(bench.out());
  }
}
