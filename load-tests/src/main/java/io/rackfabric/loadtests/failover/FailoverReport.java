package io.rackfabric.loadtests.failover;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.text.TextTable;
import io.rackfabric.host.failover.FailoverBreakdown;
import io.rackfabric.host.failover.NotificationMode;
import io.rackfabric.loadtests.report.AtomicFiles;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.report.Json;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code rack failover}'s run and report: one {@link LinkFailover} on a checked topology, its
 * breakdown (Ladon Table 2) printed from the model times the hosts' messages carried, beside the
 * paper's figures, and optionally written as JSON.
 */
public final class FailoverReport {

  /** --stream: one datagram each way per microsecond of model time, from 10us before the fault. */
  private static final long STREAM_INTERVAL_NS = 1_000;
  private static final long STREAM_LEAD_NS = 10_000;

  /** Ladon Table 2, for comparison only: never used to compute anything. */
  private static final String[] PAPER = {
      "2.4 us", "8.5 us", "76 us (8 CHs: 8 x (8.5 + 1))", "86.9 us", "17 us"};

  private FailoverReport() {}

  /**
   * Runs the fail-over and prints its breakdown.
   *
   * @param kind what fails, as the command names it (link, uplink, switch)
   * @param failed the CH whose link fails (for a CH link)
   * @param streamCount FreeQ/PostQ datagrams each way between the failing CH and another, 0 for none
   * @param overrides rackfabric.host settings for this run, by key
   * @param json the result file, or null
   */
  public static int run(String kind, Topology topology, LinkFailover.Fault fault, int failed, NotificationMode mode,
      long streamCount, Map<String, String> overrides, Path json, PrintStream out) throws Exception {
    int n = topology.globalMemorySpec().computeHosts().size();
    LinkFailover.Streams streams = new LinkFailover.Streams(streamCount, STREAM_INTERVAL_NS, STREAM_LEAD_NS);
    Config config = ConfigFactory.parseMap(overrides);
    out.printf("rack failover %s: %s%n", kind, topology.name());
    LinkFailover.Result result = LinkFailover.run(topology, fault, failed, mode, streams, config, out);
    FailoverBreakdown b = result.breakdown();
    out.println();
    out.print(render(b));
    out.printf("TLPs the fabric lost on the failed link: %d%n", result.lostOnFailedLink());
    if (!result.streams().isEmpty()) {
      out.print(renderStreams(result.streams()));
    }

    if (json != null) {
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("command", "failover " + kind);
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
      AtomicFiles.writeString(json, Json.write(doc));
      out.println("wrote " + json);
    }
    return 0;
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
