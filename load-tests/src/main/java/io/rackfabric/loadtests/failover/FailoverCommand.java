package io.rackfabric.loadtests.failover;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.cli.PicocliRackCommand;
import io.rackfabric.cluster.cli.UsageException;
import io.rackfabric.cluster.topology.LadonRackGenerator;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyException;
import io.rackfabric.cluster.topology.TopologyLoader;
import io.rackfabric.fabric.text.TextTable;
import io.rackfabric.host.failover.FailoverBreakdown;
import io.rackfabric.host.failover.NotificationMode;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.loadtests.report.AtomicFiles;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.report.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code rack failover link}: one compute host's primary link fails in a Ladon rack of N compute
 * hosts, and the fail-over's breakdown (Ladon Table 2) is printed from the model times the
 * hosts' messages carried.
 */
@Command(name = "failover",
    description = {"data-plane fail-over breakdown (Ladon Table 2): link|uplink|switch --hosts N [--multicast]"
        + " [--host X] [--stream COUNT] [--json OUT]",
        "link: one compute host's primary link fails; uplink: the primary plane's uplink; switch: the primary"
        + " plane's switch. The rack runs in this JVM under the model-time kernel; the breakdown comes from the"
        + " model times the hosts' messages carried."})
public final class FailoverCommand extends PicocliRackCommand {

  /** --stream: one datagram each way per microsecond of model time, from 10us before the fault. */
  private static final long STREAM_INTERVAL_NS = 1_000;
  private static final long STREAM_LEAD_NS = 10_000;

  /** Ladon Table 2, for comparison only: never used to compute anything. */
  private static final String[] PAPER = {
      "2.4 us", "8.5 us", "76 us (8 CHs: 8 x (8.5 + 1))", "86.9 us", "17 us"};

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
    LinkFailover.Streams streams = new LinkFailover.Streams(streamCount, STREAM_INTERVAL_NS, STREAM_LEAD_NS);
    Map<String, String> overrides = new LinkedHashMap<>();
    putDuration("poll-latency", pollLatency, "rackfabric.host.mailbox.poll-latency", overrides);
    putDuration("aer-latency", aerLatency, "rackfabric.host.aer.interrupt-latency", overrides);
    putDuration("route-update", routeUpdate, "rackfabric.host.route-update-latency", overrides);
    Config config = ConfigFactory.parseMap(overrides);

    out.printf("rack failover %s: %s%n", what.get(0), topology.name());
    LinkFailover.Result result = LinkFailover.run(topology, fault, failed, mode, streams, config, out);
    FailoverBreakdown b = result.breakdown();
    out.println();
    out.print(render(b));
    out.printf("TLPs the fabric lost on the failed link: %d%n", result.lostOnFailedLink());
    if (!result.streams().isEmpty()) {
      out.print(renderStreams(result.streams()));
    }

    if (json != null) {
      Path file = json;
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("command", "failover " + what.get(0));
      doc.put("topology", topology.name());
      doc.put("compute_hosts", n);
      doc.put("failed_host", failed);
      doc.put("notification", mode.name().toLowerCase());
      doc.put("parameters", ConfigFactory.load().withFallback(config).getConfig("rackfabric.host").root().unwrapped());
      doc.put("parameter_overrides", overrides);
      List<Map<String, Object>> figures = new ArrayList<>();
      for (Figure f : figures(b, result.lostOnFailedLink(), result.streams())) {
        figures.add(f.toMap());
      }
      doc.put("figures", figures);
      AtomicFiles.writeString(file, Json.write(doc));
      out.println("wrote " + file);
    }
    return 0;
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

  /** The datagram streams across the fail-over: each arrived once and in order, and what that took. */
  static String renderStreams(List<FailoverStreams.Stream> streams) {
    StringBuilder sb = new StringBuilder(String.format(
        "%nFreeQ/PostQ datagram streams across the fail-over (%d-byte datagrams)%n", FailoverStreams.PAYLOAD));
    List<String[]> t = new ArrayList<>();
    t.add(new String[] {"stream", "sent", "delivered", "duplicates", "out of order", "transmissions",
        "retransmissions", "timeouts", "plane changes"});
    for (FailoverStreams.Stream s : streams) {
      t.add(new String[] {"CH" + s.from() + " -> CH" + s.to(), "" + s.sent(), "" + s.delivered(), "" + s.duplicates(),
          "" + s.outOfOrder(), "" + s.transmissions(), "" + s.retransmissions(), "" + s.timeouts(),
          "" + s.planeChanges()});
    }
    TextTable.append(sb, "  ", t);
    return sb.toString();
  }

  static List<Figure> figures(FailoverBreakdown b, long lost, List<FailoverStreams.Stream> streams) {
    List<Figure> f = new ArrayList<>();
    f.add(new Figure("detection", b.detectionNs(), "ns", "model"));
    f.add(new Figure("determination", b.determinationNs(), "ns", "model"));
    f.add(new Figure("notification_and_processing", b.notificationNs(), "ns", "model"));
    f.add(new Figure("total", b.totalNs(), "ns", "model"));
    f.add(new Figure("report_round_trip", b.roundTripNs(), "ns", "model"));
    for (FailoverBreakdown.PerHost h : b.hosts()) {
      f.add(new Figure("ch" + h.ch() + ".delivery", h.deliveryNs(), "ns", "model"));
      f.add(new Figure("ch" + h.ch() + ".route_update", h.updateNs(), "ns", "model"));
      f.add(new Figure("ch" + h.ch() + ".acknowledgement", h.acknowledgementNs(), "ns", "model"));
    }
    f.add(new Figure("tlps_lost_on_failed_link", lost, "TLPs", "count"));
    for (FailoverStreams.Stream s : streams) {
      String p = "stream.ch" + s.from() + "_to_ch" + s.to() + ".";
      f.add(new Figure(p + "sent", s.sent(), "datagrams", "count"));
      f.add(new Figure(p + "delivered", s.delivered(), "datagrams", "count"));
      f.add(new Figure(p + "duplicates", s.duplicates(), "datagrams", "count"));
      f.add(new Figure(p + "out_of_order", s.outOfOrder(), "datagrams", "count"));
      f.add(new Figure(p + "retransmissions", s.retransmissions(), "datagrams", "count"));
      f.add(new Figure(p + "plane_changes", s.planeChanges(), "changes", "count"));
    }
    return f;
  }

  /** Table 2 as the emulator measured it, beside the paper's figures. */
  public static String render(FailoverBreakdown b) {
    StringBuilder sb = new StringBuilder();
    boolean plane = b.failedHost() == 0;
    sb.append(String.format("Fail-over of %s, %d compute hosts, %s notification (model time)%n",
        plane ? "the whole primary plane (detected by the MH's own AER driver)" : "CH" + b.failedHost() + "'s primary link",
        b.computeHosts(), b.mode().name().toLowerCase()));
    List<String[]> t = new ArrayList<>();
    // The paper leaves switch failures for future work: it has no figures to set beside a plane's.
    String[] paper = plane ? new String[] {"-", "-", "-", "-", "-"} : PAPER;
    t.add(new String[] {"step", "emulated", plane ? "Ladon (no switch failures)" : "Ladon Table 2"});
    t.add(new String[] {"link failure detection", us(b.detectionNs()), paper[0]});
    t.add(new String[] {"failure determination", us(b.determinationNs()), paper[1]});
    t.add(new String[] {"route change notification and processing", us(b.notificationNs()), paper[2]});
    t.add(new String[] {"total", us(b.totalNs()), paper[3]});
    if (!plane) {
      t.add(new String[] {"report round trip, as the CH's AER driver sees it", us(b.roundTripNs()), PAPER[4]});
    }
    TextTable.append(sb, "  ", t);
    sb.append(String.format("%nPer compute host (notification sent, then: delivery to its poller, route update,"
        + " acknowledgement back to the MH)%n"));
    List<String[]> h = new ArrayList<>();
    h.add(new String[] {"CH", "sent (after the fault)", "delivery", "update", "acknowledgement"});
    for (FailoverBreakdown.PerHost p : b.hosts()) {
      h.add(new String[] {"CH" + p.ch(), us(p.sentAt() - b.faultAt()), us(p.deliveryNs()), us(p.updateNs()),
          us(p.acknowledgementNs())});
    }
    TextTable.append(sb, "  ", h);
    return sb.toString();
  }

  private static String us(long ns) {
    return String.format("%.2f us", ns / 1000.0);
  }
}
