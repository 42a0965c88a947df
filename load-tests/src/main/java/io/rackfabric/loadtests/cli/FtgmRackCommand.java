package io.rackfabric.loadtests.cli;

import io.rackfabric.cluster.cli.PicocliRackCommand;
import io.rackfabric.cluster.cli.UsageException;
import io.rackfabric.host.ftgm.FaultOutcome;
import io.rackfabric.host.ftgm.FtgmSettings;
import io.rackfabric.host.ftgm.RecoveryEvent;
import io.rackfabric.host.nic.McpMode;
import io.rackfabric.loadtests.scenario.ScenarioKinds;
import io.rackfabric.loadtests.scenario.ftgm.FtgmCampaignRun;
import io.rackfabric.loadtests.scenario.ftgm.FtgmEventLog;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioException;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code rack ftgm}: the two things an ftgm-campaign run hands on. {@code replay SCENARIO --mode M
 * --fault N [--seed S]} runs one fault of the campaign again, alone, and prints what it did with
 * each detection and recovery step; {@code events RUN_DIR|FILE [--mode M] [--fault N]} reads back
 * the events a campaign run recorded.
 */
@Command(name = "ftgm",
    description = "NIC firmware fault campaigns: replay SCENARIO --mode gm|ftgm --fault N [--seed S] | events RUN_DIR"
        + " [--mode gm|ftgm] [--fault N]",
    subcommands = {FtgmRackCommand.ReplayFault.class, FtgmRackCommand.Events.class})
public final class FtgmRackCommand extends PicocliRackCommand {

  /** {@code rack ftgm} alone names what it takes. */
  @Override
  public Integer call() throws UsageException {
    throw new UsageException("expected 'replay SCENARIO' or 'events RUN_DIR'");
  }

  @Command(name = "replay",
      description = "run one fault of a scenario's ftgm-campaign again, alone (the replay line of rack run gives"
          + " the flags); exit 1 when the fault left a hang unrecovered or the stream not intact")
  static final class ReplayFault implements Callable<Integer> {

    @ParentCommand
    FtgmRackCommand parent;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    boolean help;

    @Parameters(paramLabel = "SCENARIO", description = "the scenario file or bundled name with the campaign")
    String scenario;

    @Option(names = "--mode", required = true, paramLabel = "gm|ftgm", description = "which of the campaign's runs")
    String mode;

    @Option(names = "--fault", required = true, paramLabel = "N", description = "the fault's index in the campaign, from 0")
    int fault;

    @Option(names = "--seed", paramLabel = "S", description = "the run's seed (default: the scenario's)")
    Long seed;

    @Override
    public Integer call() throws UsageException {
      McpMode m = mode(mode);
      if (fault < 0) {
        throw new UsageException("--fault=" + fault + " not in [0," + Integer.MAX_VALUE + "]");
      }
      Scenario s;
      try {
        s = ScenarioLoader.loadFileOrBundled(scenario, ScenarioKinds.standard(), new ScenarioOptions(null, seed, null));
      } catch (ScenarioException e) {
        e.problems().forEach(parent.err::println);
        return 2;
      }
      if (!s.inProcess()) {
        parent.err.println(s.source() + ": no ftgm-campaign section, nothing to replay");
        return 2;
      }
      FaultOutcome o;
      try {
        o = new FtgmCampaignRun().replay(s.ftgmCampaign(), m, fault);
      } catch (IllegalArgumentException e) {
        throw new UsageException("--" + e.getMessage());
      }
      var out = parent.out;
      out.printf("fault %d of %s (%s, campaign seed %d, fault seed %d): %s at %s, model time %d ns%n", o.index(),
          s.name(), m, s.ftgmCampaign().spec().seed(), o.seed(), o.category().key(),
          o.point().name().toLowerCase(Locale.ROOT), o.injectAt());
      out.printf("  activated %s, hang %s, detected %s, recovered %s; %d lost, %d duplicated, %d out of order%n",
          o.activated(), o.hang(), o.detected(), o.recovered(), o.lost(), o.duplicated(), o.outOfOrder());
      for (RecoveryEvent e : o.events()) {
        out.printf("  %,16d ns  %-8s %-22s %s%s%n", e.at(), e.nic(), e.step(), e.port() < 0 ? "" : "port " + e.port()
            + " ", e.detail());
      }
      o.breakdowns().forEach(b -> out.print(b.render()));
      return o.unrecoveredHang() || !o.intact() ? 1 : 0;
    }
  }

  @Command(name = "events", description = "print the recovery events a campaign run recorded")
  static final class Events implements Callable<Integer> {

    @ParentCommand
    FtgmRackCommand parent;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    boolean help;

    @Parameters(paramLabel = "RUN_DIR|FILE", description = "a run folder, or its ftgm events file")
    Path from;

    @Option(names = "--mode", paramLabel = "gm|ftgm", description = "only this mode's events")
    String mode;

    @Option(names = "--fault", paramLabel = "N", description = "only this fault's events")
    Integer fault;

    @Override
    public Integer call() throws UsageException {
      String m = mode == null ? null : mode(mode).name().toLowerCase(Locale.ROOT);
      List<FtgmEventLog.Row> rows;
      try {
        rows = FtgmEventLog.read(from);
      } catch (IOException e) {
        parent.err.println(e.getMessage());
        return 2;
      }
      int shown = 0;
      for (FtgmEventLog.Row r : rows) {
        if ((m != null && !m.equals(r.mode())) || (fault != null && fault != r.fault())) {
          continue;
        }
        parent.out.printf("%-4s fault %4d %-18s %,16d ns  %-8s %-22s %s%s%n", r.mode(), r.fault(), r.category(),
            r.atNs(), r.nic(), r.step(), r.port() < 0 ? "" : "port " + r.port() + " ", r.detail());
        shown++;
      }
      parent.out.println(shown + " of " + rows.size() + " events");
      return 0;
    }
  }

  private static McpMode mode(String text) throws UsageException {
    try {
      return FtgmSettings.mode(text);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--" + e.getMessage());
    }
  }
}
