package io.rackfabric.loadtests.scenario;

import io.rackfabric.loadtests.report.AtomicFiles;
import io.rackfabric.loadtests.report.Json;
import io.rackfabric.loadtests.report.html.HtmlReport;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * What every run leaves in its folder: {@code result.json} and, next to it, {@code report.html}
 * ({@code rack run} has put the scenario's copy there before the run, see {@link FaultRecord}).
 */
public final class RunFiles {

  public static final String RESULT = "result.json";

  private RunFiles() {}

  /** The JSON result of a run, with its baseline's part when it has one (else null). */
  public static String json(Outcome outcome, BaselineRun baseline) {
    return json(outcome, baseline, null, null);
  }

  /**
   * The JSON result of a run whose folder is {@code runDir} (its fault record names the scenario
   * copies found there), a replay of {@code replayOf} (or null).
   */
  public static String json(Outcome outcome, BaselineRun baseline, Path runDir, Path replayOf) {
    Map<String, Object> result = ResultJson.of(outcome);
    FaultRecord.noteFolder(result, runDir, replayOf);
    return Json.write(baseline == null ? result : baseline.into(result));
  }

  /**
   * Writes both files into {@code runDir} (created if missing).
   *
   * @return the report's path
   */
  public static Path write(Path runDir, Outcome outcome, BaselineRun baseline) throws IOException {
    return write(runDir, outcome, baseline, null);
  }

  /** {@link #write(Path, Outcome, BaselineRun)} for a replay of {@code replayOf} (or null). */
  public static Path write(Path runDir, Outcome outcome, BaselineRun baseline, Path replayOf) throws IOException {
    Files.createDirectories(runDir);
    AtomicFiles.writeString(runDir.resolve(RESULT), json(outcome, baseline, runDir, replayOf));
    Path report = runDir.resolve(HtmlReport.REPORT);
    AtomicFiles.writeString(report, HtmlReport.of(outcome, baseline));
    return report;
  }
}
