package io.rackfabric.loadtests.scenario.api;

import io.rackfabric.loadtests.scenario.language.FtgmCampaign;
import io.rackfabric.host.ftgm.FaultOutcome;
import io.rackfabric.host.ftgm.OutcomeTable;
import io.rackfabric.host.ftgm.OverheadReport;
import io.rackfabric.host.ftgm.RecoveryBreakdown;
import io.rackfabric.host.nic.McpMode;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What an {@code ftgm-campaign} run produced: one outcome table per mode, one hang's recovery per
 * number of open ports (FTGM), the overhead of FTGM against GM in fault-free traffic, and where
 * the detection and recovery events were written.
 *
 * @param scenarioSource how {@code rack ftgm replay} names the scenario again
 * @param modes one per mode, in the order the scenario gave
 * @param byPorts one hang's recovery under FTGM at each of the campaign's recovery-ports
 * @param eventsFile the run's events file (read back by {@code scenario.ftgm.FtgmEventLog})
 * @param wallNanos wall time of the whole campaign (modes in parallel, then the rest)
 */
public record FtgmCampaignResult(
    FtgmCampaign campaign,
    String scenarioSource,
    List<ModeRun> modes,
    List<RecoveryBreakdown> byPorts,
    OverheadReport overhead,
    Path eventsFile,
    long wallNanos) {

  /**
   * One mode's campaign.
   *
   * @param wallNanos wall time this mode's faults took on its thread
   */
  public record ModeRun(McpMode mode, OutcomeTable table, long wallNanos) {}

  public FtgmCampaignResult {
    modes = List.copyOf(modes);
    byPorts = List.copyOf(byPorts);
  }

  public Optional<ModeRun> mode(McpMode mode) {
    return modes.stream().filter(m -> m.mode() == mode).findFirst();
  }

  /** The line that runs one fault of a mode again, alone, with its events. */
  public String replayLine(McpMode mode, FaultOutcome o) {
    return "rack ftgm replay " + scenarioSource + " --mode " + mode.name().toLowerCase(java.util.Locale.ROOT)
        + " --fault " + o.index() + " --seed " + campaign.spec().seed();
  }

  /** Faults of a mode that broke what FTGM promises: a hang not recovered, or a message lost, doubled or reordered. */
  public static List<FaultOutcome> broken(OutcomeTable table) {
    return table.outcomes().stream().filter(o -> o.unrecoveredHang() || !o.intact()).toList();
  }
}
