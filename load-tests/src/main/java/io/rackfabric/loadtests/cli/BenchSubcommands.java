package io.rackfabric.loadtests.cli;

import static io.rackfabric.cluster.cli.PicocliRackCommand.inRange;

import io.rackfabric.cluster.cli.UsageException;
import io.rackfabric.loadtests.bench.BenchCompare;
import io.rackfabric.loadtests.bench.BenchSections;
import io.rackfabric.loadtests.bench.DataplaneRun;
import io.rackfabric.loadtests.bench.jmh.JmhBench;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The benchmarks of {@code rack bench}, one picocli subcommand each; the work is the bench package's. */
final class BenchSubcommands {

  private BenchSubcommands() {}

  @Command(name = "dataplane", showDefaultValues = true, sortOptions = false,
      description = {"the data plane against the bare runtime, free-running and under the model-time kernel",
          "In one JVM a two-switch path (5 hops) against a bare tell chain of as many actors; across two JVMs one"
          + " link against bare Artery sends with the same window. Rates are wall-clock medians of the rounds;"
          + " prints whether the targets (single JVM >= 0.5 of bare, across JVMs >= 0.8) were met."})
  static final class Dataplane extends BenchSubcommand {
    @Mixin
    BenchFlags.Dataplane flags;

    @Option(names = "--only", paramLabel = "single|cross", description = "only in one JVM, or only across JVMs"
        + " (default: both)")
    String only;

    @Mixin
    BenchFlags.Json json;

    @Override
    int run(PrintStream out) throws Exception {
      DataplaneRun.Settings s = flags.checked();
      BenchFlags.Jvms jvms = BenchFlags.Jvms.of(only);
      return DataplaneRun.run(s, jvms.single(), jvms.cross(), json.checked(), out);
    }
  }

  @Command(name = "controller", showDefaultValues = true, sortOptions = false,
      description = {"the control plane's replicated writes, take-over, rejoin and recovery against the bare journal",
          "On an H2 file journal: replicated writes per second through the MMH/BMH pair, the BMH's take-over wall"
          + " time and replay rate, a rejoin's state transfer to a host with an empty journal (wall time, events/s),"
          + " and a fresh controller's recovery against the bare journal read of the same events; one row per"
          + " change-log length."})
  static final class Controller extends BenchSubcommand {
    @Mixin
    BenchFlags.Events events;

    @Mixin
    BenchFlags.Json json;

    @Override
    int run(PrintStream out) throws Exception {
      return BenchSections.controller(events.checked(), json.checked(), out);
    }
  }

  @Command(name = "failover", showDefaultValues = true, sortOptions = false,
      description = {"link fail-over on a generated Ladon rack in one JVM, wall and model time",
          "CH1's primary cable fails and the MH notifies every CH one by one; then every CH's primary cable fails"
          + " at once. Wall time from the fault to the last CH acknowledged, beside the model-time figures."})
  static final class Failover extends BenchSubcommand {
    @Mixin
    BenchFlags.Hosts hosts;

    @Mixin
    BenchFlags.Json json;

    @Override
    int run(PrintStream out) throws Exception {
      return BenchSections.failover(hosts.checked(), json.checked(), out);
    }
  }

  @Command(name = "startup", showDefaultValues = true, sortOptions = false,
      description = {"single-JVM start-up wall time of racks up to the multi-rack fabric, beside a bare spawn",
          "ladon-testbed, the 48-CH Ladon rack and the multi-rack fabric of --racks racks, each until every link"
          + " trained and the control plane booted, with its heap per component, beside a bare spawn of as many"
          + " actors."})
  static final class Startup extends BenchSubcommand {
    @Mixin
    BenchFlags.Racks racks;

    @Mixin
    BenchFlags.Json json;

    @Override
    int run(PrintStream out) throws Exception {
      return BenchSections.startup(racks.checked(), json.checked(), out);
    }
  }

  @Command(name = "discovery", showDefaultValues = true, sortOptions = false,
      description = {"the fabric manager's discovery (AS-FM) of racks up to the multi-rack fabric: reads and wall time",
          "ladon-testbed, the 48-CH Ladon rack and the multi-rack fabric of --racks racks, each discovered from its"
          + " control-plane master as 'rack fabric discover' does: structural (no actors, no model time); read"
          + " requests, bytes and reads per device (counts), the wall time of the walk and of the check.",
          "With --over-fabric each rack is also started in one JVM under the model-time kernel and discovered"
          + " with PI-4 reads over its switch and endpoint actors: the discovery's model time, its reads and the"
          + " run's wall time (the 21-rack fabric takes minutes; --racks 2 for a quick look)."})
  static final class Discovery extends BenchSubcommand {
    @Mixin
    BenchFlags.Racks racks;

    @Option(names = "--rounds", paramLabel = "R", description = "discoveries of each rack (the last one is reported,"
        + " the others warm the JVM up), 1 to 100")
    int rounds = 5;

    @Option(names = "--over-fabric", description = "also discover each rack over the emulated fabric, in model time")
    boolean overFabric;

    @Mixin
    BenchFlags.Json json;

    @Override
    int run(PrintStream out) throws Exception {
      inRange("--rounds", rounds, 1, 100);
      return BenchSections.discovery(racks.checked(), rounds, overFabric, json.checked(), out);
    }
  }

  @Command(name = "lending", showDefaultValues = true, sortOptions = false,
      description = {"Device Lending: borrows and returns per wall second, and the wall time of one DMA sweep",
          "A controller on an H2 file journal (no replication) lends one GPU --loans times, each borrow and return"
          + " waited for; then the bundled lending-bandwidth-b2b scenario (4 KiB to 16 MiB, writes and reads) runs"
          + " in this JVM; prints whether the sweep met its target (under a minute on two cores)."})
  static final class Lending extends BenchSubcommand {
    @Mixin
    BenchFlags.Loans loans;

    @Mixin
    BenchFlags.Json json;

    @Override
    int run(PrintStream out) throws Exception {
      return BenchSections.lending(loans.checked(), json.checked(), out);
    }
  }

  @Command(name = "loaded", showDefaultValues = true, sortOptions = false,
      description = {"the model-time kernel under load: every CH of a Ladon rack writing into the next",
          "64-byte posted writes, in one JVM and on three; TLP hops per wall second, the kernel's messages per TLP"
          + " and the model-time latency, beside the bare tell chain."})
  static final class Loaded extends BenchSubcommand {
    @Mixin
    BenchFlags.Hosts hosts;

    @Option(names = "--tlps", paramLabel = "N", converter = BenchFlags.WholeNumber.class,
        description = "posted writes in all, 1_000 to 100_000_000")
    long tlps = 1_000_000;

    @Option(names = "--only", paramLabel = "single|cross", description = "only in one JVM, or only on three"
        + " (default: both)")
    String only;

    @Mixin
    BenchFlags.Json json;

    @Override
    int run(PrintStream out) throws Exception {
      int h = hosts.checked();
      inRange("--tlps", tlps, 1_000, 100_000_000);
      BenchFlags.Jvms jvms = BenchFlags.Jvms.of(only);
      return BenchSections.loaded(h, tlps, jvms.single(), jvms.cross(), json.checked(), out);
    }
  }

  @Command(name = "soak", showDefaultValues = true, sortOptions = false,
      description = {"a long stream of posted writes: the heap's growth per million TLPs (target: flat)",
          "64-byte posted writes through the demo rack in one JVM, the heap after a full GC sampled every ~10 s"
          + " with a progress line; the growth is measured after the first fifth."})
  static final class Soak extends BenchSubcommand {
    @Option(names = "--tlps", paramLabel = "N", converter = BenchFlags.WholeNumber.class,
        description = "posted writes in all, 100_000 to 10_000_000_000")
    long tlps = 100_000_000;

    @Mixin
    BenchFlags.Json json;

    @Override
    int run(PrintStream out) throws Exception {
      inRange("--tlps", tlps, 100_000, 10_000_000_000L);
      return BenchSections.soak(tlps, json.checked(), out);
    }
  }

  @Command(name = "jmh", showDefaultValues = true, sortOptions = false,
      description = {"JMH micro-benchmarks of the pure domain code, ns per operation",
          "Routing, NTB and requester-ID translation, IOMMU check, credits, wire calendar, TLP construction; one"
          + " forked JVM each, about 2 minutes."})
  static final class Jmh extends BenchSubcommand {
    @Option(names = "--quick", description = "a smoke run: about 30 s, rough figures")
    boolean quick;

    @Option(names = "--only", paramLabel = "REGEX",
        description = "only the benchmarks whose figure name (group.method) the expression finds (default: all)")
    String only;

    @Mixin
    BenchFlags.Json json;

    @Option(names = "--verbose", description = "also JMH's own progress output")
    boolean verbose;

    @Override
    int run(PrintStream out) throws Exception {
      Pattern pattern;
      try {
        pattern = Pattern.compile(only == null ? "" : only);
      } catch (PatternSyntaxException e) {
        throw new UsageException("--only=" + only + " is not a regular expression: " + e.getDescription());
      }
      List<String> selected = JmhBench.select(pattern);
      if (selected.isEmpty()) {
        throw new UsageException("--only=" + only + " matches no benchmark (" + String.join(", ",
            JmhBench.select(Pattern.compile("")).stream().map(JmhBench::figureName).toList()) + ")");
      }
      return JmhBench.run(selected, only, quick, verbose, json.checked(), out);
    }
  }

  @Command(name = "compare",
      description = {"two result files side by side: each figure of both, and B/A",
          "Any benchmark's files (their figures lists); a figure in only one of them is marked so."})
  static final class Compare extends BenchSubcommand {
    // A list checked in run(), so that one file or three get the message saying two.
    @Parameters(paramLabel = "A.json B.json", arity = "0..*", showDefaultValue = Help.Visibility.NEVER,
        description = "two result files of any benchmark (their figures lists)")
    List<Path> files = new ArrayList<>();

    @Override
    int run(PrintStream out) throws Exception {
      if (files.size() != 2) {
        throw new UsageException("compare needs two result files, got " + files
            + " (rack bench compare A.json B.json)");
      }
      try {
        return BenchCompare.run(files.get(0), files.get(1), out);
      } catch (BenchCompare.NotAResult e) {
        throw new UsageException(e.getMessage());
      }
    }
  }
}
