package io.rackfabric.loadtests.scenario.ftgm;

import io.rackfabric.cluster.cli.Args;
import io.rackfabric.cluster.cli.RackCommand;
import io.rackfabric.cluster.cli.UsageException;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioException;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.host.ftgm.FaultOutcome;
import io.rackfabric.host.ftgm.FtgmSettings;
import io.rackfabric.host.ftgm.RecoveryEvent;
import io.rackfabric.host.nic.McpMode;
import io.rackfabric.loadtests.scenario.RunCommand;
import io.rackfabric.loadtests.scenario.ScenarioKinds;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code rack ftgm}: the two things an ftgm-campaign run hands on. {@code replay SCENARIO --mode M
 * --fault N [--seed S]} runs one fault of the campaign again, alone, and prints what it did with
 * each detection and recovery step; {@code events RUN_DIR|FILE [--mode M] [--fault N]} reads back
 * the events a campaign run recorded.
 */
public final class FtgmCommand implements RackCommand {

  @Override
  public String name() {
    return "ftgm";
  }

  @Override
  public String summary() {
    return "NIC firmware fault campaigns: replay SCENARIO --mode gm|ftgm --fault N [--seed S] | events RUN_DIR"
        + " [--mode gm|ftgm] [--fault N]";
  }

  @Override
  public int run(List<String> argList, PrintStream out, PrintStream err) throws Exception {
    Args args = Args.parse(argList, Set.of("mode", "fault", "seed"), Set.of());
    List<String> pos = args.positional();
    if (pos.size() != 2 || !(pos.get(0).equals("replay") || pos.get(0).equals("events"))) {
      throw new UsageException("expected 'replay SCENARIO' or 'events RUN_DIR', got " + pos);
    }
    McpMode mode = args.has("mode") ? mode(args.get("mode", null)) : null;
    Integer fault = args.has("fault") ? (int) args.getLong("fault", 0, 0, Integer.MAX_VALUE) : null;
    if (pos.get(0).equals("events")) {
      return events(Path.of(pos.get(1)), mode, fault, out, err);
    }
    if (mode == null || fault == null) {
      throw new UsageException("replay needs --mode gm|ftgm and --fault N (the replay line of rack run gives both)");
    }
    Long seed = args.has("seed") ? args.getLong("seed", 0, Long.MIN_VALUE, Long.MAX_VALUE) : null;
    Scenario scenario;
    try {
      scenario = RunCommand.load(pos.get(1), ScenarioKinds.standard(), new ScenarioOptions(null, seed, null));
    } catch (ScenarioException e) {
      e.problems().forEach(err::println);
      return 2;
    }
    if (!scenario.inProcess()) {
      err.println(scenario.source() + ": no ftgm-campaign section, nothing to replay");
      return 2;
    }
    FaultOutcome o;
    try {
      o = new FtgmCampaignRun().replay(scenario.ftgmCampaign(), mode, fault);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--" + e.getMessage());
    }
    out.printf("fault %d of %s (%s, campaign seed %d, fault seed %d): %s at %s, model time %d ns%n", o.index(),
        scenario.name(), mode, scenario.ftgmCampaign().spec().seed(), o.seed(), o.category().key(),
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

  private static int events(Path from, McpMode mode, Integer fault, PrintStream out, PrintStream err) {
    List<FtgmEventLog.Row> rows;
    try {
      rows = FtgmEventLog.read(from);
    } catch (IOException e) {
      err.println(e.getMessage());
      return 2;
    }
    String m = mode == null ? null : mode.name().toLowerCase(Locale.ROOT);
    int shown = 0;
    for (FtgmEventLog.Row r : rows) {
      if ((m != null && !m.equals(r.mode())) || (fault != null && fault != r.fault())) {
        continue;
      }
      out.printf("%-4s fault %4d %-18s %,16d ns  %-8s %-22s %s%s%n", r.mode(), r.fault(), r.category(), r.atNs(),
          r.nic(), r.step(), r.port() < 0 ? "" : "port " + r.port() + " ", r.detail());
      shown++;
    }
    out.println(shown + " of " + rows.size() + " events");
    return 0;
  }

  private static McpMode mode(String text) throws UsageException {
    try {
      return FtgmSettings.mode(text);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--" + e.getMessage());
    }
  }
}
