package io.rackfabric.loadtests.cli;

import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.cli.PicocliRackCommand;
import io.rackfabric.cluster.cli.UsageException;
import io.rackfabric.cluster.topology.LadonRackGenerator;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyException;
import io.rackfabric.cluster.topology.TopologyLoader;
import io.rackfabric.host.failover.NotificationMode;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.loadtests.failover.FailoverReport;
import io.rackfabric.loadtests.failover.LinkFailover;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code rack failover link|uplink|switch}: picocli parses the flags, this checks them and picks
 * the topology, then {@link FailoverReport} runs the fail-over and prints its breakdown.
 */
@Command(name = "failover",
    description = {"data-plane fail-over breakdown (Ladon Table 2): link|uplink|switch --hosts N [--multicast]"
        + " [--host X] [--stream COUNT] [--json OUT]",
        "link: one compute host's primary link fails; uplink: the primary plane's uplink; switch: the primary"
        + " plane's switch. The rack runs in this JVM under the model-time kernel; the breakdown comes from the"
        + " model times the hosts' messages carried."})
public final class FailoverRackCommand extends PicocliRackCommand {

  // A list checked in call(), so that a missing or unknown kind gets the message naming the three.
  @Parameters(paramLabel = "link|uplink|switch", arity = "0..*", description = "what fails")
  List<String> what = new ArrayList<>();

  @Option(names = "--hosts", paramLabel = "N",
      description = "compute hosts of a generated Ladon rack, 1.." + LadonRackGenerator.MAX_COMPUTE_HOSTS + " (default: 8)")
  Integer hosts;

  @Option(names = "--topology", paramLabel = "FILE|NAME", description = "a one-node topology instead of --hosts")
  String topologyName;

  @Option(names = "--host", paramLabel = "X", description = "link: the compute host whose link fails (default: 1)")
  Integer host;

  @Option(names = "--multicast", description = "notify the compute hosts by multicast instead of one by one")
  boolean multicast;

  @Option(names = "--stream", paramLabel = "COUNT",
      description = "link: COUNT FreeQ/PostQ datagrams each way between the failing CH and another, 0..100000"
          + " (default: 0)")
  long streamCount;

  @Option(names = "--json", paramLabel = "OUT", description = "also write the figures as JSON to OUT")
  Path json;

  @Option(names = "--poll-latency", paramLabel = "DURATION", description = "rackfabric.host.mailbox.poll-latency for this run")
  String pollLatency;

  @Option(names = "--aer-latency", paramLabel = "DURATION",
      description = "rackfabric.host.aer.interrupt-latency for this run")
  String aerLatency;

  @Option(names = "--route-update", paramLabel = "DURATION",
      description = "rackfabric.host.route-update-latency for this run")
  String routeUpdate;

  @Override
  public Integer call() throws Exception {
    LinkFailover.Fault fault = what.size() != 1 ? null : switch (what.get(0)) {
      case "link" -> LinkFailover.Fault.CH_LINK;
      case "uplink" -> LinkFailover.Fault.UPLINK;
      case "switch" -> LinkFailover.Fault.SWITCH;
      default -> null;
    };
    if (fault == null) {
      throw new UsageException("usage: rack failover link|uplink|switch --hosts N [--multicast] [--host X]"
          + " [--stream COUNT] [--json OUT] (or --topology F instead of --hosts); got " + what);
    }
    Topology topology;
    if (topologyName != null) {
      if (hosts != null) {
        throw new UsageException("give --hosts N or --topology F, not both");
      }
      try {
        topology = TopologyLoader.loadFileOrBundled(topologyName);
      } catch (TopologyException e) {
        throw new UsageException(e.getMessage());
      }
      if (topology.nodes().size() != 1) {
        throw new UsageException("rack failover runs the rack in this one JVM, but topology " + topology.name()
            + " places its components on " + topology.nodes().size() + " nodes (rack topology generate ladon"
            + " --placement single, or a scenario with mode = multi-jvm)");
      }
    } else {
      int count = hosts == null ? 8 : hosts;
      if (count < 1 || count > LadonRackGenerator.MAX_COMPUTE_HOSTS) {
        throw new UsageException("--hosts=" + count + " not in [1," + LadonRackGenerator.MAX_COMPUTE_HOSTS + "]");
      }
      try {
        topology = LadonRackGenerator.generate(GlobalMemoryLayout.paper(count), LadonRackGenerator.Placement.SINGLE_NODE);
      } catch (IllegalArgumentException e) {
        throw new UsageException(e.getMessage());
      }
      if (topology.globalMemorySpec().managementHost() == null) {
        throw new UsageException("--hosts=" + count + ": the paper's layout (L=32GiB, P=1TiB) leaves no"
            + " multicast and mailbox slots for data-plane fail-over above 29 compute hosts");
      }
    }
    if (topology.globalMemorySpec() == null || topology.globalMemorySpec().managementHost() == null) {
      throw new UsageException("topology " + topology.name() + " names no management-host in its global-memory section");
    }
    int n = topology.globalMemorySpec().computeHosts().size();
    if (fault != LinkFailover.Fault.CH_LINK && host != null) {
      throw new UsageException("--host names the CH whose link fails: only for 'link'");
    }
    int failed = host == null ? 1 : host;
    if (failed < 1 || failed > n) {
      throw new UsageException("--host=" + failed + " not in [1," + n + "]");
    }
    NotificationMode mode = multicast ? NotificationMode.MULTICAST : NotificationMode.UNICAST;
    if (streamCount < 0 || streamCount > 100_000) {
      throw new UsageException("--stream=" + streamCount + " not in [0,100000]");
    }
    if (streamCount > 0 && (fault != LinkFailover.Fault.CH_LINK || n < 2)) {
      throw new UsageException("--stream runs datagrams between the CH whose link fails and another CH:"
          + " only for 'link' with at least 2 compute hosts");
    }
    Map<String, String> overrides = new LinkedHashMap<>();
    putDuration("poll-latency", pollLatency, "rackfabric.host.mailbox.poll-latency", overrides);
    putDuration("aer-latency", aerLatency, "rackfabric.host.aer.interrupt-latency", overrides);
    putDuration("route-update", routeUpdate, "rackfabric.host.route-update-latency", overrides);
    return FailoverReport.run(what.get(0), topology, fault, failed, mode, streamCount, overrides, json, out);
  }

  private static void putDuration(String flag, String value, String key, Map<String, String> overrides)
      throws UsageException {
    if (value != null) {
      try {
        ConfigFactory.parseString("d = " + value).getDuration("d");
      } catch (RuntimeException e) {
        throw new UsageException("--" + flag + "=" + value + " is not a duration (e.g. 7.7us, 500ns)");
      }
      overrides.put(key, value);
    }
  }
}
