package io.rackfabric.loadtests.cli;

import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.cli.NodeCommand;
import io.rackfabric.cluster.cli.PicocliRackCommand;
import io.rackfabric.cluster.cli.UsageException;
import io.rackfabric.loadtests.demo.DemoRun;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rack demo}: picocli parses the flags, this checks them before any node JVM starts, then
 * {@link DemoRun} runs the demo rack (its exit statuses are this command's; 130 or 143 when
 * interrupted).
 */
@Command(name = "demo", showDefaultValues = true, sortOptions = false,
    description = {"run the demo rack on 3 node JVMs with traffic across JVMs, switches and NTBs, then a data-plane"
        + " fail-over and an MMH/BMH take-over [--tlps N] [--transport T [--tls-dir KEYS]] [--json OUT]",
        "This process is the cluster's seed and drives and measures the run without hosting any component; every"
        + " node JVM it starts is stopped again, also on failure. Ctrl-C or SIGTERM writes the --json file"
        + " unfinished with the TLPs delivered so far; exit 130 or 143."})
public final class DemoRackCommand extends PicocliRackCommand {

  @Option(names = "--tlps", paramLabel = "N", description = "posted writes per flow, 1..10_000_000")
  long tlps = 20_000;

  @Option(names = "--size", paramLabel = "BYTES", description = "each write's payload, in bytes, 1..4096")
  int size = 64;

  @Option(names = "--interval", paramLabel = "NS", description = "model time between a flow's writes, in"
      + " nanoseconds, 0..1_000_000_000")
  long interval = 1_000;

  @Option(names = "--transport", paramLabel = "aeron-udp|tcp|tls-tcp", description = "Artery's transport between"
      + " the JVMs")
  String transport = "aeron-udp";

  @Option(names = "--tls-dir", paramLabel = "KEYS", description = "the folder 'rack keys' made, for --transport"
      + " tls-tcp (default: the configured stores)")
  String tlsDir;

  @Option(names = "--json", paramLabel = "OUT", description = "also write the result as JSON to OUT")
  Path json;

  // One shared media driver measured about 15% faster than embedded ones on 2 cores (README).
  @Option(names = "--media-driver", paramLabel = "shared|embedded", description = "with aeron-udp: one Aeron"
      + " media driver for all the JVMs, or one embedded in each")
  String mediaDriver = "shared";

  @Override
  public Integer call() throws Exception {
    inRange("--tlps", tlps, 1, 10_000_000);
    inRange("--size", size, 1, 4096);
    inRange("--interval", interval, 0, 1_000_000_000L);
    // The transport and, with tls-tcp, the rack's stores: checked before anything starts.
    NodeCommand.clusterSettings(ConfigFactory.load(), transport, tlsDir);
    if (!mediaDriver.equals("shared") && !mediaDriver.equals("embedded")) {
      throw new UsageException("--media-driver=" + mediaDriver + " not in {shared, embedded}");
    }
    return new DemoRun(tlps, size, interval, transport, tlsDir, mediaDriver.equals("shared"), json).run(out, err);
  }
}
