package io.rackfabric.loadtests.chaos;

import io.rackfabric.loadtests.chaos.ChaosRunner.RunRecord;
import io.rackfabric.loadtests.report.html.HtmlPage;
import io.rackfabric.loadtests.report.html.HtmlPage.Cell;
import io.rackfabric.loadtests.report.html.HtmlPage.Row;
import io.rackfabric.loadtests.report.html.SvgPlot;
import io.rackfabric.loadtests.scenario.HtmlReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The HTML report of a {@code rack chaos} campaign, written beside the runs' own reports. */
public final class CampaignReport {

  private CampaignReport() {}

  /**
   * The report of a campaign: its totals, a table of runs (each linked to its own report, relative
   * to {@code campaignDir} where this page is written) and the runs' wall times.
   */
  public static String of(String name, String source, List<RunRecord> records,
      Path campaignDir) {
    HtmlPage page = new HtmlPage("rack chaos " + name);
    page.h1("rack chaos " + name);
    page.note(source);
    long failed = records.stream().filter(r -> !r.passed()).count();
    page.verdict(failed == 0, failed == 0 ? "every run passed" : failed + " of " + records.size() + " run(s) failed");
    page.table("campaign-summary", List.of(), List.of(
        Row.of("runs", Integer.toString(records.size())),
        Row.of("passed", Long.toString(records.size() - failed)),
        Row.of("failed", Long.toString(failed)),
        Row.of("fault steps applied", Integer.toString(records.stream().mapToInt(RunRecord::faultsApplied)
            .sum())),
        Row.of("invariants broken", Integer.toString(records.stream().mapToInt(r -> r.broken().size()).sum()))));
    page.h2("runs-heading", "Runs");
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < records.size(); i++) {
      RunRecord r = records.get(i);
      Path report = r.runDir().resolve(HtmlReport.REPORT);
      String href = Files.exists(report)
          ? campaignDir.toAbsolutePath().normalize().relativize(report.toAbsolutePath().normalize()).toString()
              .replace('\\', '/')
          : null;
      rows.add(new Row(List.of(Cell.of(Integer.toString(i + 1)), Cell.of(r.scenario()),
          Cell.of(Long.toString(r.seed())), Cell.of(r.firstFault()), Cell.of(r.passed() ? "pass" : "FAIL"),
          Cell.of(Integer.toString(r.faultsApplied())),
          Cell.of(r.error() != null ? "stopped: " + r.error() : r.broken().isEmpty() ? "-" : String.join(", ",
              r.broken())),
          Cell.of(String.format("%.1f", r.wallSeconds())),
          href == null ? Cell.of("-") : new Cell("report", href),
          Cell.of(r.passed() ? "" : "rack run " + r.argument() + " --seed " + r.seed())), !r.passed()));
    }
    page.table("runs", List.of("#", "scenario", "seed", "first fault", "verdict", "faults", "invariants broken",
        "wall (s)", "report", "replay"), rows);
    if (!records.isEmpty()) {
      double[] xs = new double[records.size()];
      double[] passedWall = new double[records.size()];
      double[] failedWall = new double[records.size()];
      for (int i = 0; i < records.size(); i++) {
        xs[i] = i + 0.6;
        passedWall[i] = records.get(i).passed() ? records.get(i).wallSeconds() : Double.NaN;
        failedWall[i] = records.get(i).passed() ? Double.NaN : records.get(i).wallSeconds();
      }
      page.markup(new SvgPlot("campaign-wall", "wall time of each run", "run (# in the table)",
          "wall time (s)").bars("passed", xs, passedWall, 0.8).bars("failed", xs, failedWall, 0.8).render());
    }
    return page.render();
  }
}
