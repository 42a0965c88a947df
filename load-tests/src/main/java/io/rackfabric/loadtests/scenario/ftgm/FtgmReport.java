package io.rackfabric.loadtests.scenario.ftgm;

import io.rackfabric.host.ftgm.FaultOutcome;
import io.rackfabric.host.ftgm.OutcomeTable;
import io.rackfabric.host.ftgm.RecoveryBreakdown;
import io.rackfabric.host.nic.McpMode;
import io.rackfabric.loadtests.scenario.api.FtgmCampaignResult;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;

/**
 * The campaign as {@code rack run} prints it: FTGM Table 1 per mode with what FTGM adds,
 * the faults that broke delivery with their replay lines (every one under FTGM, the first few of
 * the baseline), Table 3 from the FTGM campaign and per number of open ports, and Table 2's
 * overhead. Model times are from the runs' events.
 */
public final class FtgmReport {

  private static final int BASELINE_LISTED = 5;

  private FtgmReport() {}

  public static void print(FtgmCampaignResult r, PrintStream out) {
    out.println();
    out.printf("ftgm-campaign: %d faults into the firmware of %s, seed %d, in-process (no rack started)%n",
        r.campaign().spec().faults(), r.campaign().spec().nic(), r.campaign().spec().seed());
    for (FtgmCampaignResult.ModeRun m : r.modes()) {
      OutcomeTable t = m.table();
      out.println();
      out.print(t.render());
      List<FaultOutcome> broken = FtgmCampaignResult.broken(t);
      out.printf("%s: %d hangs, %d detected, %d recovered (ports reopened, every send confirmed); messages: %d lost,"
              + " %d duplicated, %d out of order, in %d faults (%.2f s wall)%n", m.mode(), t.hangs(), t.detected(),
          t.recovered(), t.lost(), t.duplicated(), t.outOfOrder(), broken.size(), m.wallNanos() / 1e9);
      int listed = m.mode() == McpMode.FTGM ? broken.size() : Math.min(BASELINE_LISTED, broken.size());
      if (!broken.isEmpty()) {
        out.printf("  %d faults broke delivery or were not recovered%s:%n", broken.size(),
            listed < broken.size() ? ", the first " + listed : "");
        for (FaultOutcome o : broken.subList(0, listed)) {
          out.printf("    fault %d, seed %d, %s at %s: %s%s, %d lost, %d duplicated, %d out of order%n      %s%n",
              o.index(), o.seed(), o.category().key(), o.point().name().toLowerCase(Locale.ROOT),
              o.detected() ? "detected" : "NOT DETECTED", o.recovered() ? ", recovered" : ", NOT RECOVERED",
              o.lost(), o.duplicated(), o.outOfOrder(), r.replayLine(m.mode(), o));
        }
      }
    }
    r.mode(McpMode.FTGM).ifPresent(m -> {
      List<RecoveryBreakdown> bs = m.table().outcomes().stream().flatMap(o -> o.breakdowns().stream()).toList();
      if (!bs.isEmpty()) {
        out.println();
        out.printf("Recovery (FTGM Table 3), model time, mean of the FTGM campaign's %d recoveries (%d open"
            + " ports each side):%n", bs.size(), r.campaign().ports());
        out.printf("  fault detection time     %12.1f us (max %.1f us)%n", mean(bs, RecoveryBreakdown::detectionNs),
            bs.stream().mapToLong(RecoveryBreakdown::detectionNs).max().orElse(0) / 1e3);
        out.printf("  FTD recovery time        %12.1f us%n", mean(bs, RecoveryBreakdown::daemonNs));
        out.printf("  per-process recovery     %12.1f us%n", mean(bs, RecoveryBreakdown::perProcessMeanNs));
        out.printf("  complete recovery        %12.1f us%n", mean(bs, RecoveryBreakdown::totalNs));
      }
    });
    if (!r.byPorts().isEmpty()) {
      out.println();
      out.println("Recovery by open ports (one FTGM hang each), model time:");
      out.printf("  %5s %14s %14s %18s %14s%n", "ports", "detection us", "FTD us", "per-process us", "complete us");
      for (RecoveryBreakdown b : r.byPorts()) {
        out.printf("  %5d %14.1f %14.1f %18.1f %14.1f%n", b.openPorts(), b.detectionNs() / 1e3, b.daemonNs() / 1e3,
            b.perProcessMeanNs() / 1e3, b.totalNs() / 1e3);
      }
    }
    out.println();
    out.print(r.overhead().render());
    out.printf("events: %s (rack ftgm events %s)%n", r.eventsFile(), r.eventsFile().getParent());
  }

  private static double mean(List<RecoveryBreakdown> bs, ToLongFunction<RecoveryBreakdown> f) {
    return bs.stream().mapToLong(f).average().orElse(0) / 1e3;
  }
}
