package io.rackfabric.loadtests.chaos;

import io.rackfabric.loadtests.scenario.language.FaultRates;
import io.rackfabric.loadtests.scenario.language.KindCatalog;
import io.rackfabric.loadtests.scenario.language.ScenarioException;
import io.rackfabric.fabric.text.TextTable;
import io.rackfabric.loadtests.chaos.ChaosRunner.RunRecord;
import io.rackfabric.loadtests.harness.Interruption;
import io.rackfabric.loadtests.harness.RunLogs;
import io.rackfabric.loadtests.report.AtomicFiles;
import io.rackfabric.loadtests.report.Json;
import io.rackfabric.loadtests.scenario.HtmlReport;
import io.rackfabric.loadtests.scenario.RunCommand;
import io.rackfabric.loadtests.scenario.ScenarioKinds;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code rack chaos CAMPAIGN} does once its flags are parsed (the command line is {@code
 * loadtests.cli.ChaosRackCommand}): every scenario of a campaign with every seed, a summary table
 * of runs, faults applied and invariants broken, and {@code failing-runs.txt} in the run folder
 * with one {@code rack run SCENARIO --seed N} line per failing run, which replays it exactly, and
 * the campaign's {@code report.html} linking each run's own report. Exit 0 when every run passed,
 * 1 when one failed, 2 for a bad campaign (nothing started). Ctrl-C or
 * SIGTERM: "interrupted", each unfinished run's {@code result.json} marked so (as {@code rack run}
 * does), exit 130 or 143.
 */
public final class ChaosCommand {

  /**
   * Runs (or with {@code check} only loads and checks) {@code campaignArg}, a campaign file or a
   * bundled name, into {@code runDirArg} (null: {@code target/rack-chaos/NAME-TIME}); {@code
   * json}, when not null, also gets the campaign's runs as JSON. Returns the exit status; a run
   * folder H2 would misread is a {@link io.rackfabric.cluster.cli.UsageException}.
   */
  public int run(String campaignArg, Path runDirArg, Path json, boolean check, PrintStream out, PrintStream err)
      throws Exception {
    KindCatalog<FaultType, InvariantType, FigureType> catalog = ScenarioKinds.standard();
    Campaign campaign;
    try {
      campaign = CampaignLoader.load(campaignArg, catalog, Runtime.getRuntime().availableProcessors());
    } catch (ScenarioException e) {
      e.problems().forEach(err::println);
      return 2;
    }
    out.printf("rack chaos %s: %d run(s) (%d scenario(s) x %d seed(s)), %d at once%s%n", campaign.name(),
        campaign.runs().size(), campaign.runs().size() / campaign.seeds().size(), campaign.seeds().size(),
        campaign.parallel(), campaign.faultRates().isEmpty() ? ""
            : "; fault rates " + FaultRates.text(campaign.faultRates()));
    if (check) {
      out.println(campaign.source() + ": ok");
      return 0;
    }
    Path runDir = runDirArg != null ? runDirArg
        : Path.of("target", "rack-chaos", campaign.name() + "-" + Instant.now().toString().replace(':', '-'));
    RunCommand.checkRunDir(runDir); // each run's journal folder is under it
    Files.createDirectories(runDir);
    List<RunRecord> records;
    String logs;
    try (Interruption interruption = Interruption.install("rack chaos " + campaign.name(), err);
        RunLogs runLogs = RunLogs.open(runDir)) {
      records = new ChaosRunner(catalog, interruption).run(campaign, runDir, err);
      if (interruption.interrupted()) {
        return 130; // the JVM is stopping; each unfinished run wrote its result.json as such
      }
      logs = "logs: " + runLogs.file() + " (every run's; node JVMs' in each run's " + RunLogs.DIR + "/)";
    }
    out.print(summary(records));
    String rates = campaign.faultRates().isEmpty() ? "" : " --fault-rates " + FaultRates.text(campaign.faultRates());
    List<String> replay = records.stream().filter(r -> !r.passed())
        .map(r -> "rack run " + r.argument() + " --seed " + r.seed() + rates).toList();
    Path failing = runDir.resolve("failing-runs.txt");
    AtomicFiles.writeLines(failing, replay);
    out.println(replay.isEmpty() ? "every run passed" : replay.size() + " run(s) failed; replay them with the lines in "
        + failing);
    Path report = runDir.resolve(HtmlReport.REPORT);
    try {
      AtomicFiles.writeString(report, CampaignReport.of(campaign.name(), campaign.source(), records, runDir));
      out.println("wrote " + report);
    } catch (java.io.IOException | RuntimeException e) {
      err.println("could not write " + report + ": " + e); // the summary and replay lines stand without it
    }
    if (json != null) {
      Path parent = json.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      AtomicFiles.writeString(json, Json.write(json(campaign, records)));
      out.println("wrote " + json);
    }
    out.println(logs);
    return replay.isEmpty() ? 0 : 1;
  }

  /** The table of runs and the totals. */
  static String summary(List<RunRecord> records) {
    StringBuilder sb = new StringBuilder("\n");
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"scenario", "seed", "first fault", "verdict", "faults", "invariants broken", "wall"});
    for (RunRecord r : records) {
      rows.add(new String[] {r.scenario(), Long.toString(r.seed()), r.firstFault(), r.passed() ? "pass" : "FAIL",
          Integer.toString(r.faultsApplied()), r.error() != null ? "stopped: " + r.error()
              : r.broken().isEmpty() ? "-" : String.join(", ", r.broken()), String.format("%.1f s", r.wallSeconds())});
    }
    TextTable.append(sb, "  ", rows);
    long failed = records.stream().filter(r -> !r.passed()).count();
    sb.append(String.format("%nruns %d, passed %d, failed %d; fault steps applied %d; invariants broken %d%n",
        records.size(), records.size() - failed, failed, records.stream().mapToInt(RunRecord::faultsApplied).sum(),
        records.stream().mapToInt(r -> r.broken().size()).sum()));
    return sb.toString();
  }

  private static Map<String, Object> json(Campaign campaign, List<RunRecord> records) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("campaign", campaign.name());
    m.put("source", campaign.source());
    m.put("seeds", campaign.seeds());
    m.put("parallel", campaign.parallel());
    m.put("fault_rates", campaign.faultRates());
    List<Object> runs = new ArrayList<>();
    for (RunRecord r : records) {
      Map<String, Object> run = new LinkedHashMap<>();
      run.put("scenario", r.scenario());
      run.put("argument", r.argument());
      run.put("seed", r.seed());
      run.put("first_fault", r.firstFault());
      run.put("passed", r.passed());
      run.put("finished", r.finished());
      run.put("faults_applied", r.faultsApplied());
      run.put("invariants_broken", r.broken());
      run.put("wall_s", r.wallSeconds());
      run.put("run_dir", r.runDir().toString());
      run.put("error", r.error());
      runs.add(run);
    }
    m.put("runs", runs);
    m.put("passed", records.stream().allMatch(RunRecord::passed));
    return m;
  }
}
