package io.rackfabric.loadtests.scenario.figure;

import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.management.DiscoveryRun;
import io.rackfabric.cluster.management.TopologyFabric;
import io.rackfabric.fabric.management.Candidacy;
import io.rackfabric.fabric.management.ElectionClaim;
import io.rackfabric.fabric.management.FabricManagerReport;
import io.rackfabric.fabric.management.FmDatabaseResync;
import io.rackfabric.fabric.management.FmDatabaseUpdate;
import io.rackfabric.fabric.management.PacketKind;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.stats.LinkActivation;
import io.rackfabric.fabric.stats.PortStats;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code fabric-manager}: the fabric manager's discovery over the fabric's actors
 * ({@code rackfabric.fabric.management}): its PI-4 packets by kind, what it found, its model time
 * from the first request leaving to the last completion arriving (the causal chain: links,
 * switches, serialization, device managers' answers), and each partial rediscovery a PI-5 event
 * caused. Beside them, the read requests the structure implies (the same walk answered by the
 * topology's devices without actors, {@link DiscoveryRun}) and every link end's management
 * packets by kind, as its wire meter counted them.
 */
public final class FabricManagerFigures implements FigureType {

  /** What a figure or an invariant of the fabric manager says when none ran. */
  public static final String NONE_RAN = "no fabric manager ran: rackfabric.fabric.management.enabled is off, or its"
      + " fabric-manager is no endpoint (the run's output says which)";

  @Override
  public String name() {
    return "fabric-manager";
  }

  @Override
  public String summary() {
    return "the fabric manager's discovery over the fabric: PI-4 packets by kind, devices and links found,"
        + " differences from the topology file, model time; each PI-5 event's partial rediscovery; each port's wait"
        + " in DL_Protected for its activation; the election of a primary and a secondary; the take-over; the"
        + " paths distributed after the discovery and after each rediscovery";
  }

  @Override
  public List<Figure> produce(RunResult run) {
    FabricManagerReport r = report(run.endpointsAtEnd()).orElseThrow(() -> new IllegalArgumentException(NONE_RAN));
    List<Figure> out = new ArrayList<>();
    out.add(new Figure("fm.read_requests", r.readRequests(), "packets", "count"));
    out.add(new Figure("fm.read_request_bytes", r.readRequestBytes(), "bytes", "count"));
    out.add(new Figure("fm.completions", r.completions(), "packets", "count"));
    out.add(new Figure("fm.completion_bytes", r.completionBytes(), "bytes", "count"));
    out.add(new Figure("fm.completions_with_error", r.errorCompletions(), "packets", "count"));
    out.add(new Figure("fm.writes", r.writes(), "packets", "count"));
    out.add(new Figure("fm.activation_writes", r.activationWrites(), "packets", "count"));
    out.add(new Figure("fm.pi5_events", r.events(), "packets", "count"));
    out.add(new Figure("fm.devices", r.devices(), "devices", "count"));
    out.add(new Figure("fm.links", r.links(), "links", "count"));
    out.add(new Figure("fm.problems", r.problems().size(), "problems", "count"));
    if (r.differences() != null) {
      out.add(new Figure("fm.differences", r.differences().size(), "differences", "count"));
    }
    out.add(new Figure("fm.structural_read_requests", structuralReadRequests(run, r.fabricManager()), "packets", "count"));
    out.add(new Figure("fm.discovery_started_ns", r.startedAt(), "ns", "model"));
    out.add(new Figure("fm.discovery_ns", r.discoveryNs(), "ns", "model"));
    out.add(new Figure("fm.processing_ns", r.processingNs(), "ns", "model"));
    if (r.windows() != null) { // write-ntb-windows: the NTB ports' windows it wrote
      FabricManagerReport.Windows w = r.windows();
      out.add(new Figure("fm.ntb_windows.ports_written", w.ports(), "ports", "count"));
      out.add(new Figure("fm.ntb_windows.writes", w.writes(), "packets", "count"));
      out.add(new Figure("fm.ntb_windows.last_sent_ns", w.lastAt(), "ns", "model"));
      out.add(new Figure("fm.ntb_windows.not_written", w.notWritten().size(), "ports", "count"));
      out.add(new Figure("fm.ntb_windows.differences_from_file", w.differences().size(), "differences", "count"));
    }
    for (PacketKind k : PacketKind.values()) {
      out.add(new Figure("fm.wire." + k.name().toLowerCase() + "_sent", wireSent(run, k), "link transmissions",
          "count"));
    }
    activations(run, out);
    election(run, out);
    PathFigures.paths(run, r, out);
    int i = 0;
    for (FabricManagerReport.Rediscovery d : r.rediscoveries()) {
      String p = "fm.rediscovery." + i++ + ".";
      out.add(new Figure(p + "port", d.port(), "port", "count"));
      out.add(new Figure(p + "event_sent_ns", d.eventSentAt(), "ns", "model"));
      out.add(new Figure(p + "event_latency_ns", d.eventAt() - d.eventSentAt(), "ns", "model"));
      out.add(new Figure(p + "read_requests", d.readRequests(), "packets", "count"));
      out.add(new Figure(p + "completions", d.completions(), "packets", "count"));
      out.add(new Figure(p + "ns", d.ns(), "ns", "model"));
      if (d.differences() != null) {
        out.add(new Figure(p + "differences", d.differences().size(), "differences", "count"));
      }
      out.add(new Figure(p + "devices_added", d.devicesAdded(), "devices", "count"));
      out.add(new Figure(p + "devices_removed", d.devicesRemoved(), "devices", "count"));
      if (r.copy() == null || !r.copy().resumed()) { // against the full discovery this fabric manager ran
        out.add(new Figure(p + "full_discovery_read_requests", r.discoveryReadRequests(), "packets", "count"));
        out.add(new Figure(p + "full_discovery_ns", r.discoveryNs(), "ns", "model"));
      }
    }
    return out;
  }

  /**
   * Each link end the fabric manager activated (AS-FM section 2.2): the model time from its last
   * training to DL_Protected to its activation by the PI-4 write, as the end itself recorded both;
   * and the longest of them.
   */
  static void activations(RunResult run, List<Figure> out) {
    java.util.SortedMap<String, LinkActivation> ends = new java.util.TreeMap<>();
    run.portsAtEnd().forEach((name, p) -> ends.put(name, p.activation()));
    run.endpointsAtEnd().forEach((name, e) -> ends.put(name, e.link().activation()));
    long activated = 0;
    long longest = -1;
    for (Map.Entry<String, LinkActivation> e : ends.entrySet()) {
      LinkActivation a = e.getValue();
      if (a.activations() == 0) {
        continue;
      }
      activated++;
      out.add(new Figure("fm.activation." + e.getKey() + ".waited_ns", a.waitedNs(), "ns", "model"));
      longest = Math.max(longest, a.waitedNs());
    }
    out.add(new Figure("fm.activated_ends", activated, "link ends", "count"));
    out.add(new Figure("fm.activation_longest_wait_ns", longest, "ns", "model"));
  }

  /**
   * The election as each candidate saw it (AS-FM section 4): when it claimed, when its capability
   * last changed (from then on it held the final outcome), what it came out as; the election's
   * model time from the first claim to the last candidate holding the outcome; the claims every
   * link end sent (a flooded claim counts once per link it crosses); whether all agreed.
   */
  static void election(RunResult run, List<Figure> out) {
    java.util.SortedMap<String, Candidacy.Report> candidates = new java.util.TreeMap<>();
    run.endpointsAtEnd().forEach((id, e) -> {
      if (e.fabricManager() != null && e.fabricManager().election() != null) {
        candidates.put(id, e.fabricManager().election());
      }
    });
    if (candidates.isEmpty()) {
      return;
    }
    long first = Long.MAX_VALUE;
    long last = -1;
    java.util.Set<String> outcomes = new java.util.HashSet<>();
    for (Map.Entry<String, Candidacy.Report> c : candidates.entrySet()) {
      Candidacy.Report r = c.getValue();
      String p = "election." + c.getKey() + ".";
      out.add(new Figure(p + "priority", r.priority(), "priority", "count"));
      out.add(new Figure(p + "claimed_ns", r.claimedAt(), "ns", "model"));
      out.add(new Figure(p + "knew_ns", r.lastChangeAt(), "ns", "model"));
      out.add(new Figure(p + "primary", r.role() == Candidacy.Role.PRIMARY ? 1 : 0, "boolean", "count"));
      out.add(new Figure(p + "secondary", r.role() == Candidacy.Role.SECONDARY ? 1 : 0, "boolean", "count"));
      out.add(new Figure(p + "claims_received", r.claimsReceived(), "packets", "count"));
      if (r.claimedAt() >= 0) {
        first = Math.min(first, r.claimedAt());
      }
      last = Math.max(last, r.lastChangeAt());
      outcomes.add(r.primarySerial() + "/" + r.secondarySerial());
    }
    takeover(run, candidates, out);
    out.add(new Figure("election.candidates", candidates.size(), "endpoints", "count"));
    out.add(new Figure("election.ns", first == Long.MAX_VALUE ? -1 : last - first, "ns", "model"));
    out.add(new Figure("election.agreed", outcomes.size() == 1 ? 1 : 0, "boolean", "count"));
    out.add(new Figure("election.claims_sent", wireSent(run, ElectionClaim.KIND_CODE), "link transmissions", "count"));
    out.add(new Figure("fm.wire.database_update_sent", wireSent(run, FmDatabaseUpdate.KIND_CODE), "link transmissions",
        "count"));
    out.add(new Figure("fm.wire.database_resync_sent", wireSent(run, FmDatabaseResync.KIND_CODE), "link transmissions",
        "count"));
  }

  /**
   * The fabric manager's fail-over: heartbeats each candidate sent and received, and for the one
   * that took over, when (model time), the last heartbeat it had (sent and arrived), the death of
   * the old primary as the scenario stamped it (its first model-time fault on the old primary's
   * endpoint or link), and the time from taking over to serving (its own discovery finished).
   */
  static void takeover(RunResult run, java.util.SortedMap<String, Candidacy.Report> candidates, List<Figure> out) {
    List<Map.Entry<String, Candidacy.Report>> tookOver = new java.util.ArrayList<>();
    for (Map.Entry<String, Candidacy.Report> c : candidates.entrySet()) {
      Candidacy.Watch w = c.getValue().watch();
      String p = "election." + c.getKey() + ".";
      out.add(new Figure(p + "heartbeats_sent", w.heartbeatsSent(), "packets", "count"));
      out.add(new Figure(p + "heartbeats_received", w.heartbeatsReceived(), "packets", "count"));
      appointment(p, w, candidates, out);
      database(p, run.endpointsAtEnd().get(c.getKey()).fabricManager().copy(), out);
      if (w.tookOverAt() >= 0) {
        tookOver.add(c);
      }
    }
    // the first take-over in model time is fm.takeover.*, a second one (of an appointed secondary) fm.takeover2.*
    tookOver.sort(java.util.Comparator.comparingLong(c -> c.getValue().watch().tookOverAt()));
    for (int i = 0; i < tookOver.size(); i++) {
      takeoverOf(run, tookOver.get(i), candidates, i == 0 ? "fm.takeover." : "fm.takeover" + (i + 1) + ".", out);
    }
  }

  /**
   * A new secondary after a take-over: on the primary that appointed one, when, whom and how many
   * endpoints it read; on the appointee, when the appointment reached it.
   */
  private static void appointment(String p, Candidacy.Watch w, java.util.SortedMap<String, Candidacy.Report> candidates,
      List<Figure> out) {
    if (w.appointedAt() < 0) {
      return;
    }
    out.add(new Figure(p + "appointed_ns", w.appointedAt(), "ns", "model"));
    if (w.appointeeSerial() != 0) {
      out.add(new Figure(p + "candidates_read", w.candidatesRead(), "endpoints", "count"));
      candidates.forEach((id, r) -> {
        if (r.serial() == w.appointeeSerial()) {
          out.add(new Figure(p + "appointed_" + id, 1, "boolean", "count"));
        }
      });
    }
  }

  /** One take-over's figures, named from {@code prefix}. */
  private static void takeoverOf(RunResult run, Map.Entry<String, Candidacy.Report> c,
      java.util.SortedMap<String, Candidacy.Report> candidates, String prefix, List<Figure> out) {
    Candidacy.Watch w = c.getValue().watch();
    FabricManagerReport r = run.endpointsAtEnd().get(c.getKey()).fabricManager();
    out.add(new Figure(prefix + "by_" + c.getKey(), 1, "boolean", "count"));
    out.add(new Figure(prefix + "at_ns", w.tookOverAt(), "ns", "model"));
    out.add(new Figure(prefix + "last_heartbeat_sent_ns", w.lastHeartbeatSentAt(), "ns", "model"));
    out.add(new Figure(prefix + "last_heartbeat_at_ns", w.lastHeartbeatAt(), "ns", "model"));
    // the primary it watched: the one that appointed it, else the election's
    long watched = w.appointerSerial() != 0 ? w.appointerSerial() : c.getValue().primarySerial();
    String old = candidates.entrySet().stream().filter(o -> o.getValue().serial() == watched)
        .map(Map.Entry::getKey).findFirst().orElse(null);
    long death = old == null ? -1 : deathOf(run, old);
    if (death >= 0) {
      out.add(new Figure(prefix + "primary_died_ns", death, "ns", "model"));
      out.add(new Figure(prefix + "detection_ns", w.tookOverAt() - death, "ns", "model"));
    }
    out.add(new Figure(prefix + "serving_ns", r.discoveredAt() < 0 ? -1 : r.discoveredAt() - w.tookOverAt(), "ns",
        "model"));
    boolean kept = r.copy() != null && r.copy().resumed();
    out.add(new Figure(prefix + "from_database", kept ? 1 : 0, "boolean", "count"));
    out.add(new Figure(prefix + "from_controller", kept && r.copy().fromController() ? 1 : 0, "boolean",
        "count"));
    out.add(new Figure(prefix + "reads_after_takeover", r.discoveredAt() < 0 ? -1 : r.discoveryReadRequests(),
        "packets", "count"));
    if (kept) {
      out.add(new Figure(prefix + "rereads", r.copy().rereads(), "devices", "count"));
      out.add(new Figure(prefix + "event_route_writes", r.copy().eventRouteWrites(), "packets", "count"));
    }
    if (death >= 0 && r.discoveredAt() >= 0) {
      out.add(new Figure(prefix + "total_ns", r.discoveredAt() - death, "ns", "model"));
    }
  }

  /**
   * The topology database a candidate sent as primary (full copies, deltas, messages and bytes, full
   * copies asked of it) and kept as secondary (messages taken, updates applied whole, gaps, full
   * copies it asked for).
   */
  private static void database(String p, FabricManagerReport.DatabaseCopy c, List<Figure> out) {
    if (c == null) {
      return;
    }
    out.add(new Figure(p + "database.full_copies_sent", c.sent().fullCopies(), "updates", "count"));
    out.add(new Figure(p + "database.deltas_sent", c.sent().deltas(), "updates", "count"));
    out.add(new Figure(p + "database.messages_sent", c.sent().messages(), "packets", "count"));
    out.add(new Figure(p + "database.bytes_sent", c.sent().bytes(), "bytes", "count"));
    out.add(new Figure(p + "database.resyncs_asked_of", c.sent().resyncsAsked(), "requests", "count"));
    out.add(new Figure(p + "database.messages_received", c.received().messages(), "packets", "count"));
    out.add(new Figure(p + "database.updates_applied", c.received().updatesApplied(), "updates", "count"));
    out.add(new Figure(p + "database.gaps", c.received().gaps(), "gaps", "count"));
    out.add(new Figure(p + "database.resyncs_asked", c.received().resyncsAsked(), "requests", "count"));
    out.add(new Figure(p + "database.controller_changes", c.recorded(), "updates", "count"));
  }

  /** The model time of the scenario's first fault on endpoint {@code id} or its link; -1: none. */
  private static long deathOf(RunResult run, String id) {
    return run.scenario().faults().stream()
        .filter(f -> f.at() != null && f.at().isModel() && f.target() != null
            && (f.target().equals(id) || run.scenario().topology().topology().linkAt(id)
                .map(l -> l.other(id).equals(f.target())).orElse(false)))
        .mapToLong(f -> f.at().nanos()).min().orElse(-1);
  }

  /** The fabric manager's report, from the endpoint it ran on. */
  public static Optional<FabricManagerReport> report(Map<String, EndpointStats> endpoints) {
    List<FabricManagerReport> all = endpoints.values().stream().map(EndpointStats::fabricManager)
        .filter(r -> r != null).toList();
    // the fabric manager serving at the end: the one that started last (a secondary that took over)
    return all.stream().filter(r -> r.startedAt() >= 0).max(java.util.Comparator.comparingLong(
        FabricManagerReport::startedAt)).or(() -> all.stream().findFirst());
  }

  /** Read requests the same walk takes over the topology's structure, without actors. */
  public static long structuralReadRequests(RunResult run, String from) {
    return DiscoveryRun.run(fabric(run), from, 1, p -> {}).packets().count(PacketKind.PI4_READ_REQUEST);
  }

  /** The run's topology's devices as the fabric manager sees them (serial numbers, ports, links). */
  public static TopologyFabric fabric(RunResult run) {
    FabricSettings settings = FabricSettings.create(
        ConfigFactory.parseMap(run.scenario().settings()).withFallback(ConfigFactory.load()));
    return TopologyFabric.of(run.scenario().topology().topology(), settings);
  }

  /** Management packets of {@code kind} every link end sent, as its wire meter counted them. */
  static long wireSent(RunResult run, PacketKind kind) {
    return wireSent(run, kind.ordinal());
  }

  /** Management packets of kind code {@code code} every link end sent. */
  static long wireSent(RunResult run, int code) {
    long n = 0;
    for (PortStats p : run.portsAtEnd().values()) {
      n += p.wire().management(code);
    }
    for (EndpointStats e : run.endpointsAtEnd().values()) {
      n += e.link().wire().management(code);
    }
    return n;
  }
}
