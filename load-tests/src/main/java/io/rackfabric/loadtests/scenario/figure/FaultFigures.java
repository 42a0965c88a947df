package io.rackfabric.loadtests.scenario.figure;

import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.stats.EndpointStats.AerRecord;
import io.rackfabric.fabric.stats.LinkRetryStats;
import io.rackfabric.fabric.stats.PortStats;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.RunResult.AppliedFault;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code faults}: when each fault step was applied, and for each model-time step that took a link
 * down how long until the first AER record reached each root (the record's model arrival time
 * minus the fault's), plus what the failed ends dropped.
 */
public final class FaultFigures implements FigureType {

  @Override
  public String name() {
    return "faults";
  }

  @Override
  public String summary() {
    return "each fault step's time, AER detection time at every root (model), TLPs dropped at the failed ends";
  }

  @Override
  public List<Figure> produce(RunResult run) {
    List<Figure> out = new ArrayList<>();
    List<String> roots = run.scenario().topology().topology().endpoints().stream().filter(EndpointSpec::root)
        .map(EndpointSpec::id).toList();
    for (int i = 0; i < run.faults().size(); i++) {
      AppliedFault f = run.faults().get(i);
      String p = "fault" + (i + 1) + "." + f.spec().kind() + "." + f.spec().target() + ".";
      if (f.modelAt() >= 0) {
        out.add(new Figure(p + "at", f.modelAt(), "ns", "model"));
      }
      out.add(new Figure(p + "applied_after", f.wallAtNanos() / 1e9, "s", "wall"));
      if (f.modelAt() < 0 || !f.takesLinkDown()) {
        continue;
      }
      for (String root : roots) {
        run.newAer(root).stream().filter(r -> r.modelAt() >= f.modelAt()).findFirst()
            .ifPresent(r -> out.add(new Figure(p + "aer_detection." + root, r.modelAt() - f.modelAt(), "ns", "model")));
      }
    }
    for (String root : roots) {
      List<AerRecord> records = run.newAer(root);
      if (!records.isEmpty()) {
        out.add(new Figure("aer." + root + ".records", records.size(), "AER messages", "count"));
      }
    }
    for (String end : run.ends()) {
      retryFigures(end, linkStats(run, end), out);
    }
    long drops = 0;
    for (String end : run.faultedEnds()) {
      drops += Math.max(0, run.drops(end));
    }
    if (!run.faultedEnds().isEmpty()) {
      out.add(new Figure("failed_ends.dropped", drops, "TLPs", "count"));
    }
    return out;
  }

  private static PortStats linkStats(RunResult run, String end) {
    PortStats port = run.portsAtEnd().get(end);
    if (port != null) {
      return port;
    }
    EndpointStats ep = run.endpointsAtEnd().get(end);
    return ep == null ? null : ep.link();
  }

  /** The data link retry at a link end that saw any (injected errors, or their partner's). */
  private static void retryFigures(String end, PortStats stats, List<Figure> out) {
    if (stats == null || stats.retry().equals(LinkRetryStats.NONE)) {
      return;
    }
    LinkRetryStats r = stats.retry();
    String p = "link." + end + ".";
    out.add(new Figure(p + "replays", r.replays(), "replays", "count"));
    out.add(new Figure(p + "replay_timeouts", r.replayTimeouts(), "replays", "count"));
    out.add(new Figure(p + "tlps_replayed", r.tlpsReplayed(), "TLPs", "count"));
    out.add(new Figure(p + "naks_sent", r.naksSent(), "DLLPs", "count"));
    out.add(new Figure(p + "naks_received", r.naksReceived(), "DLLPs", "count"));
    out.add(new Figure(p + "bad_lcrc", r.badLcrc(), "TLPs", "count"));
    out.add(new Figure(p + "injected_drops", r.injectedDrops(), "TLPs", "count"));
    out.add(new Figure(p + "injected_corrupt", r.injectedCorrupt(), "TLPs", "count"));
    out.add(new Figure(p + "injected_delays", r.injectedDelays(), "TLPs", "count"));
    out.add(new Figure(p + "replay_rollovers", r.rollovers(), "link downs", "count"));
  }
}
