package io.rackfabric.loadtests.cli;

import io.rackfabric.cluster.cli.PicocliRackCommand;
import io.rackfabric.cluster.cli.UsageException;
import io.rackfabric.loadtests.bench.BenchAll;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code rack bench}: one subcommand per benchmark ({@link BenchSubcommands}), each with its own
 * flags; with no name, the first five in a row into one result file ({@link BenchAll}). The
 * benchmarks themselves are plain classes of the bench package.
 */
@Command(name = "bench", showDefaultValues = true, sortOptions = false, synopsisSubcommandLabel = "[BENCHMARK]",
    description = {"benchmarks against the bare runtime: data plane, controller, fail-over, start-up, lending, load,"
        + " fabric discovery, soak, JMH; compare two result files",
        "With no BENCHMARK: dataplane, controller, failover, startup and lending, one --json with a section per"
        + " benchmark;"
        + " the flags below are theirs. 'rack bench BENCHMARK --help' shows a benchmark's flags."},
    subcommands = {BenchSubcommands.Dataplane.class, BenchSubcommands.Controller.class,
        BenchSubcommands.Failover.class, BenchSubcommands.Startup.class, BenchSubcommands.Lending.class,
        BenchSubcommands.Loaded.class, BenchSubcommands.Discovery.class,
        BenchSubcommands.Soak.class, BenchSubcommands.Jmh.class, BenchSubcommands.Compare.class})
public final class BenchRackCommand extends PicocliRackCommand {

  @Mixin
  BenchFlags.Dataplane dataplane;

  @Mixin
  BenchFlags.Events events;

  @Mixin
  BenchFlags.Hosts hosts;

  @Mixin
  BenchFlags.Racks racks;

  @Mixin
  BenchFlags.Loans loans;

  @Mixin
  BenchFlags.Json json;

  // Caught here so that a mistyped benchmark gets the list of them, not "unmatched argument".
  @Parameters(arity = "0..*", hidden = true, showDefaultValue = Help.Visibility.NEVER)
  List<String> unknown = new ArrayList<>();

  @Spec
  CommandSpec spec;

  /** The run of all five: every value checked before the first benchmark runs for minutes. */
  @Override
  public Integer call() throws Exception {
    if (!unknown.isEmpty()) {
      List<String> names = new ArrayList<>(spec.subcommands().keySet());
      throw new UsageException("unknown benchmark " + unknown + " (benchmarks: " + String.join(", ", names)
          + "; none: the first five)");
    }
    List<Integer> counts = events.checked();
    int h = hosts.checked();
    int r = racks.checked();
    int l = loans.checked();
    var settings = dataplane.checked();
    return BenchAll.run(settings, counts, h, r, l, json.checked(), out);
  }

  PrintStream out() {
    return out;
  }

  /** Whether {@code flag} is one of the run of all five's or of any benchmark's. */
  boolean anyBenchmarkHas(String flag) {
    if (spec.findOption(flag) != null) {
      return true;
    }
    return spec.subcommands().values().stream().anyMatch(c -> c.getCommandSpec().findOption(flag) != null);
  }

  /** A flag given before the benchmark's name would be the run of all five's: refused rather than dropped. */
  void refuseFlagsBefore(String benchmark) throws UsageException {
    CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
    if (parsed != null && !parsed.matchedOptions().isEmpty()) {
      String flag = parsed.matchedOptions().get(0).longestName();
      throw new UsageException(flag + " goes after the benchmark's name (rack bench " + benchmark + " " + flag
          + " ...)");
    }
  }
}
