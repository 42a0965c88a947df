package io.rackfabric.loadtests.scenario;

import io.rackfabric.loadtests.report.Json;
import io.rackfabric.loadtests.report.html.HtmlReport;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** What every run leaves in its folder: {@code result.json} and, next to it, {@code report.html}. */
public final class RunFiles {

  public static final String RESULT = "result.json";

  private RunFiles() {}

  /** The JSON result of a run, with its baseline's part when it has one (else null). */
  public static String json(Outcome outcome, BaselineRun baseline) {
    Map<String, Object> result = ResultJson.of(outcome);
    return Json.write(baseline == null ? result : baseline.into(result));
  }

  /**
   * Writes both files into {@code runDir} (created if missing).
   *
   * @return the report's path
   */
  public static Path write(Path runDir, Outcome outcome, BaselineRun baseline) throws IOException {
    Files.createDirectories(runDir);
    Files.writeString(runDir.resolve(RESULT), json(outcome, baseline));
    Path report = runDir.resolve(HtmlReport.REPORT);
    Files.writeString(report, HtmlReport.of(outcome, baseline));
    return report;
  }
}
