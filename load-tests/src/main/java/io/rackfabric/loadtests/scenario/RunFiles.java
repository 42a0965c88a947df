package io.rackfabric.loadtests.scenario;

import io.rackfabric.loadtests.scenario.language.Durations;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.report.AtomicFiles;
import io.rackfabric.loadtests.report.Json;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * What every run leaves in its folder: {@code result.json} and, next to it, {@code report.html}
 * ({@code rack run} has put the scenario's copy there before the run, see {@link FaultRecord}); an
 * interrupted run only its unfinished {@code result.json}. Each is written whole or not at all
 * ({@link AtomicFiles}).
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

  /**
   * An interrupted run's {@code result.json} (and {@code --json} file): unfinished, no verdict,
   * the model time reached and what was measured so far ({@link ResultJson#interrupted}).
   */
  static void writeInterrupted(Scenario scenario, RunProgress watch, Path runDir, Path json,
      PrintStream err) throws IOException {
    long reached = watch.modelReachedNs();
    String text = Json.write(ResultJson.interrupted(scenario, watch));
    Path result = AtomicFiles.writeString(runDir.resolve(RunFiles.RESULT), text);
    if (json != null) {
      AtomicFiles.writeString(json, text);
    }
    err.println("rack run " + scenario.name() + ": " + (reached < 0 ? "stopped before the model began"
        : "the model had reached " + Durations.text(reached)) + "; unfinished result in " + result
        + (json == null ? "" : " and " + json));
  }
}
