package io.rackfabric.loadtests.scenario.ftgm;

import io.rackfabric.loadtests.scenario.language.FtgmCampaign;
import io.rackfabric.host.ftgm.OutcomeTable;
import io.rackfabric.host.ftgm.OverheadReport;
import io.rackfabric.host.ftgm.RecoveryBreakdown;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.FtgmCampaignResult;
import io.rackfabric.loadtests.scenario.api.RunResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;

/**
 * {@code ftgm-campaign}: per mode, FTGM Table 1 (injections and percent per category) with
 * hangs detected and recovered and the messages lost, duplicated and out of order; Table 3 (fault
 * detection, daemon recovery, per-process recovery) as the mean over the campaign's FTGM recoveries
 * and for each number of open ports measured; Table 2's latency and host CPU per message, GM
 * against FTGM. Every model-time figure is read off the events of the runs. Nothing without a
 * campaign.
 */
public final class FtgmCampaignFigures implements FigureType {

  @Override
  public String name() {
    return FtgmCampaign.FIGURES;
  }

  @Override
  public String summary() {
    return "ftgm-campaign: per mode Table 1 outcomes, hangs detected/recovered, messages lost/duplicated/out of"
        + " order; Table 3 recovery (campaign mean and per open-port count); Table 2 overhead, GM against FTGM";
  }

  @Override
  public List<Figure> produce(RunResult run) {
    List<Figure> out = new ArrayList<>();
    FtgmCampaignResult r = run.ftgm();
    if (r == null) {
      return out;
    }
    for (FtgmCampaignResult.ModeRun m : r.modes()) {
      OutcomeTable t = m.table();
      String p = "ftgm." + m.mode().name().toLowerCase(Locale.ROOT) + ".";
      out.add(new Figure(p + "faults", t.faults(), "faults", "count"));
      for (OutcomeTable.Row row : t.rows()) {
        String c = p + row.category().key().replace('-', '_') + ".";
        out.add(new Figure(c + "injections", row.injections(), "faults", "count"));
        out.add(new Figure(c + "percent", row.percent(), "%", "count"));
      }
      out.add(new Figure(p + "hangs", t.hangs(), "faults", "count"));
      out.add(new Figure(p + "hangs_detected", t.detected(), "faults", "count"));
      out.add(new Figure(p + "hangs_recovered", t.recovered(), "faults", "count"));
      out.add(new Figure(p + "messages_lost", t.lost(), "messages", "count"));
      out.add(new Figure(p + "messages_duplicated", t.duplicated(), "messages", "count"));
      out.add(new Figure(p + "messages_out_of_order", t.outOfOrder(), "messages", "count"));
      out.add(new Figure(p + "faults_breaking_delivery", FtgmCampaignResult.broken(t).size(), "faults", "count"));
      out.add(new Figure(p + "wall_time", m.wallNanos() / 1e9, "s", "wall"));
      List<RecoveryBreakdown> recoveries = t.outcomes().stream().flatMap(o -> o.breakdowns().stream()).toList();
      if (!recoveries.isEmpty()) {
        out.add(new Figure(p + "recovery.count", recoveries.size(), "recoveries", "count"));
        out.add(new Figure(p + "recovery.detection_mean", mean(recoveries, RecoveryBreakdown::detectionNs), "ns",
            "model"));
        out.add(new Figure(p + "recovery.detection_max", recoveries.stream()
            .mapToLong(RecoveryBreakdown::detectionNs).max().orElse(0), "ns", "model"));
        out.add(new Figure(p + "recovery.daemon_mean", mean(recoveries, RecoveryBreakdown::daemonNs), "ns", "model"));
        out.add(new Figure(p + "recovery.per_process_mean", mean(recoveries, RecoveryBreakdown::perProcessMeanNs),
            "ns", "model"));
        out.add(new Figure(p + "recovery.total_mean", mean(recoveries, RecoveryBreakdown::totalNs), "ns", "model"));
      }
    }
    for (RecoveryBreakdown b : r.byPorts()) {
      String p = "ftgm.recovery.ports_" + b.openPorts() + ".";
      out.add(new Figure(p + "detection", b.detectionNs(), "ns", "model"));
      out.add(new Figure(p + "daemon", b.daemonNs(), "ns", "model"));
      out.add(new Figure(p + "per_process_mean", b.perProcessMeanNs(), "ns", "model"));
      out.add(new Figure(p + "total", b.totalNs(), "ns", "model"));
    }
    OverheadReport o = r.overhead();
    out.add(new Figure("ftgm.overhead.latency_gm", o.gmLatencyNs(), "ns", "model"));
    out.add(new Figure("ftgm.overhead.latency_ftgm", o.ftgmLatencyNs(), "ns", "model"));
    out.add(new Figure("ftgm.overhead.latency_added", o.latencyOverheadNs(), "ns", "model"));
    out.add(new Figure("ftgm.overhead.host_send_gm", o.gmSendCpuNs(), "ns", "model"));
    out.add(new Figure("ftgm.overhead.host_send_ftgm", o.ftgmSendCpuNs(), "ns", "model"));
    out.add(new Figure("ftgm.overhead.host_receive_gm", o.gmReceiveCpuNs(), "ns", "model"));
    out.add(new Figure("ftgm.overhead.host_receive_ftgm", o.ftgmReceiveCpuNs(), "ns", "model"));
    out.add(new Figure("ftgm.campaign_wall_time", r.wallNanos() / 1e9, "s", "wall"));
    return out;
  }

  private static double mean(List<RecoveryBreakdown> bs, ToLongFunction<RecoveryBreakdown> f) {
    return bs.stream().mapToLong(f).average().orElse(0);
  }
}
