package io.rackfabric.loadtests.cli;

import static io.rackfabric.cluster.cli.PicocliRackCommand.inRange;

import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.cli.NodeCommand;
import io.rackfabric.cluster.cli.UsageException;
import io.rackfabric.cluster.topology.MultiRackGenerator;
import io.rackfabric.loadtests.bench.BenchSections;
import io.rackfabric.loadtests.bench.DataplaneBench;
import io.rackfabric.loadtests.bench.DataplaneRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * The flags several {@code rack bench} benchmarks share, as picocli mixins (the same text, default
 * and check wherever they appear), and their checks, each naming the value it refuses.
 */
final class BenchFlags {

  private BenchFlags() {}

  /** {@code rack bench dataplane}'s flags, which the run of all five takes too. */
  static final class Dataplane {
    @Option(names = "--tlps", paramLabel = "N", converter = WholeNumber.class,
        description = "posted writes of " + DataplaneBench.PAYLOAD + " bytes per round, 1_000 to 100_000_000")
    long tlps = 200_000;

    @Option(names = "--rounds", paramLabel = "R",
        description = "measured rounds, after " + DataplaneBench.WARMUPS + " warm-up rounds, 1 to 50")
    int rounds = 5;

    @Option(names = "--transport", paramLabel = "aeron-udp|tcp|tls-tcp",
        description = "Artery's transport to the peer JVM")
    String transport = "aeron-udp";

    @Option(names = "--tls-dir", paramLabel = "KEYS",
        description = "the folder 'rack keys' made, for --transport tls-tcp (default: the configured stores)")
    String tlsDir;

    DataplaneRun.Settings checked() throws UsageException {
      inRange("--tlps", tlps, 1_000, 100_000_000);
      inRange("--rounds", rounds, 1, 50);
      // The transport and, with tls-tcp, the rack's stores: checked before anything starts.
      NodeCommand.clusterSettings(ConfigFactory.load(), transport, tlsDir);
      return new DataplaneRun.Settings(tlps, rounds, transport, tlsDir);
    }
  }

  /** {@code --events N[,M...]}: the controller's change-log lengths. */
  static final class Events {
    @Option(names = "--events", paramLabel = "N[,M...]",
        description = "change-log lengths in events, one row each, each 100 to 1_000_000")
    String events = "10000,100000";

    List<Integer> checked() throws UsageException {
      List<Integer> counts = new ArrayList<>();
      for (String part : events.split(",", -1)) {
        long n;
        try {
          n = Long.parseLong(part.strip().replace("_", ""));
        } catch (NumberFormatException e) {
          throw new UsageException("--events=" + events + ": '" + part + "' is not a whole number");
        }
        if (n < 100 || n > 1_000_000) {
          throw new UsageException("--events=" + events + ": " + n + " not in [100,1000000]");
        }
        counts.add((int) n);
      }
      return counts;
    }
  }

  /** {@code --hosts N}: the CHs of a generated Ladon rack with fail-over. */
  static final class Hosts {
    @Option(names = "--hosts", paramLabel = "N",
        description = "compute hosts (CHs) of a generated Ladon rack, 2 to " + BenchSections.MAX_FAILOVER_HOSTS)
    int hosts = 48;

    int checked() throws UsageException {
      inRange("--hosts", hosts, 2, BenchSections.MAX_FAILOVER_HOSTS);
      return hosts;
    }
  }

  /** {@code --racks N}: the racks of the multi-rack fabric. */
  static final class Racks {
    @Option(names = "--racks", paramLabel = "N",
        description = "48-CH racks of the multi-rack fabric, 1 to " + MultiRackGenerator.MAX_RACKS)
    int racks = 21;

    int checked() throws UsageException {
      inRange("--racks", racks, 1, MultiRackGenerator.MAX_RACKS);
      return racks;
    }
  }

  /** {@code --loans N}: the borrow-and-return rounds of the lending benchmark. */
  static final class Loans {
    @Option(names = "--loans", paramLabel = "N", converter = WholeNumber.class,
        description = "rounds of borrow + return through the controller (2 operations each), 10 to 1_000_000")
    long loans = 2_000;

    int checked() throws UsageException {
      inRange("--loans", loans, 10, 1_000_000);
      return (int) loans;
    }
  }

  /** {@code --json OUT}: the result file. */
  static final class Json {
    @Option(names = "--json", paramLabel = "OUT", description = "also write the figures as JSON to OUT")
    Path json;

    /** The result file, or null; its folder must exist before a benchmark runs for minutes. */
    Path checked() throws UsageException {
      if (json != null && json.getParent() != null && !Files.isDirectory(json.getParent())) {
        throw new UsageException("--json=" + json + ": no directory " + json.getParent());
      }
      return json;
    }
  }

  /** Where a benchmark with {@code --only single|cross} runs: in one JVM, across JVMs, or both. */
  record Jvms(boolean single, boolean cross) {
    /** {@code only} null: both. */
    static Jvms of(String only) throws UsageException {
      if (only != null && !only.equals("single") && !only.equals("cross")) {
        throw new UsageException("--only=" + only + " not in {single, cross}");
      }
      return new Jvms(!"cross".equals(only), !"single".equals(only));
    }
  }

  /** A count that may be written with underscores ({@code 100_000_000}), as the flags' texts write them. */
  static final class WholeNumber implements ITypeConverter<Long> {
    @Override
    public Long convert(String text) {
      try {
        return Long.parseLong(text.replace("_", ""));
      } catch (NumberFormatException e) {
        throw new TypeConversionException("'" + text + "' is not a whole number");
      }
    }
  }
}
