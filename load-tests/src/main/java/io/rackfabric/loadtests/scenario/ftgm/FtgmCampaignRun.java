package io.rackfabric.loadtests.scenario.ftgm;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.loadtests.scenario.language.FtgmCampaign;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.host.ftgm.FaultCampaign;
import io.rackfabric.host.ftgm.FaultOutcome;
import io.rackfabric.host.ftgm.FtgmSettings;
import io.rackfabric.host.ftgm.OutcomeTable;
import io.rackfabric.host.ftgm.OverheadReport;
import io.rackfabric.host.ftgm.RecoveryBreakdown;
import io.rackfabric.host.nic.FaultCategory;
import io.rackfabric.host.nic.FaultPoint;
import io.rackfabric.host.nic.McpMode;
import io.rackfabric.host.nic.NicSettings;
import io.rackfabric.loadtests.scenario.api.FtgmCampaignResult;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs a scenario's {@code ftgm-campaign} in this JVM, without starting the rack: the NIC's model
 * testbed (its firmware, its link, the server outside the rack, the processes on both sides) on
 * one discrete-event queue per fault, so the campaign is determined by its seed. The modes run in
 * parallel, one thread each (up to the section's {@code parallel}); then one hang per number of
 * open ports and the fault-free overhead run. The scenario runner then judges its invariants and
 * figures as for any run.
 */
public final class FtgmCampaignRun {

  /** The events file's name in the run's folder. */
  public static final String EVENTS_FILE = "ftgm-events.json";

  private final Config config;

  public FtgmCampaignRun(Config config) {
    this.config = config;
  }

  public FtgmCampaignRun() {
    this(ConfigFactory.load());
  }

  /** The campaign itself: tables, recoveries by open ports, overhead, events file. */
  public FtgmCampaignResult campaign(Scenario scenario, Path runDir, PrintStream progress) throws Exception {
    FtgmCampaign c = scenario.ftgmCampaign();
    FtgmSettings settings = settings(c);
    NicSettings nic = NicSettings.create(config);
    long t0 = System.nanoTime();
    int threads = Math.max(1, Math.min(c.parallel(), c.modes().size()));
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "ftgm-campaign");
      t.setDaemon(true);
      return t;
    });
    List<FtgmCampaignResult.ModeRun> modes = new ArrayList<>();
    try {
      List<Future<FtgmCampaignResult.ModeRun>> futures = new ArrayList<>();
      for (McpMode mode : c.modes()) {
        futures.add(pool.submit(() -> {
          long start = System.nanoTime();
          OutcomeTable table = FaultCampaign.run(settings, nic, mode, c.spec());
          return new FtgmCampaignResult.ModeRun(mode, table, System.nanoTime() - start);
        }));
      }
      for (Future<FtgmCampaignResult.ModeRun> f : futures) {
        FtgmCampaignResult.ModeRun m = f.get();
        progress.printf("  %s: %d faults in %.2f s of wall time (%d hangs)%n", m.mode(), m.table().faults(),
            m.wallNanos() / 1e9, m.table().hangs());
        modes.add(m);
      }
    } finally {
      pool.shutdownNow();
    }
    List<RecoveryBreakdown> byPorts = new ArrayList<>();
    for (int ports : c.recoveryPorts()) {
      byPorts.add(recoveryWith(settings, nic, c, ports));
    }
    OverheadReport overhead = OverheadReport.measure(settings, nic, c.overheadMessages());
    Files.createDirectories(runDir);
    Path events = runDir.resolve(EVENTS_FILE);
    FtgmEventLog.write(events, modes);
    long wall = System.nanoTime() - t0;
    progress.printf("  campaign over after %.2f s of wall time; events in %s%n", wall / 1e9, events);
    return new FtgmCampaignResult(c, scenario.source(), modes, byPorts, overhead, events, wall);
  }

  /** The settings' firmware and host times with the section's traffic. */
  FtgmSettings settings(FtgmCampaign c) {
    return FtgmSettings.create(config).withTraffic(c.ports(), c.messages(), c.messageIntervalNs());
  }

  /**
   * One interface hang under FTGM with {@code ports} open ports, a few messages into the traffic:
   * Table 3 out of that run's events.
   */
  private static RecoveryBreakdown recoveryWith(FtgmSettings settings, NicSettings nic, FtgmCampaign c, int ports) {
    FtgmSettings s = settings.withTraffic(ports, c.messages(), c.messageIntervalNs());
    long at = 3 * c.messageIntervalNs();
    FaultOutcome o = FaultCampaign.inject(s, nic, McpMode.FTGM, c.spec().nic(), FaultCategory.INTERFACE_HANG,
        FaultPoint.PACKET_SENT, at, 0, c.spec().seed(), false);
    if (o.breakdowns().isEmpty()) {
      throw new IllegalStateException("ports=" + ports + ": the hang injected at " + at + "ns was not recovered: " + o);
    }
    return o.breakdowns().get(0);
  }

  /** Replays one fault of a mode's campaign from its index, as the table's replay line says. */
  public FaultOutcome replay(FtgmCampaign c, McpMode mode, int index) {
    if (index < 0 || index >= c.spec().faults()) {
      throw new IllegalArgumentException("fault=" + index + " not in [0," + (c.spec().faults() - 1) + "]");
    }
    return FaultCampaign.replay(settings(c), NicSettings.create(config), mode, c.spec(), index,
        FaultCampaign.faultSeed(c.spec().seed(), index));
  }
}
