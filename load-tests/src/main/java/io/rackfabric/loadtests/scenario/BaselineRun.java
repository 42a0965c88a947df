package io.rackfabric.loadtests.scenario;

import io.rackfabric.loadtests.scenario.language.Durations;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.host.controlplane.Takeover;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The baseline of a scenario that names one ({@code control-plane.baseline}): the same scenario
 * once more, on a fresh rack in its own folder ({@code RUN/baseline}), with the baseline's
 * take-over mode, and the figures both runs have from the take-over and the NIC stream side by
 * side. The baseline exists to show what the main run's mechanism saves (the data plane's outage),
 * so its invariants are not judged; a baseline run that does not start or does not finish is an
 * error of the run all the same.
 *
 * @param takeover the main run's take-over mode
 * @param baseline the baseline run's take-over mode
 * @param runDir the baseline run's folder
 * @param outcome what the baseline run recorded, or null when it did not start or broke off
 * @param error why the baseline is no result (it did not start, broke off, or hit its wall-time
 *     limit), or null when it ran to the end
 */
public record BaselineRun(Takeover takeover, Takeover baseline, Path runDir, Outcome outcome, String error) {

  /** The baseline run's folder inside the main run's. */
  public static final String FOLDER = "baseline";

  /** What a user reads about the baseline's invariants, in the table and the JSON. */
  static final String NOT_JUDGED = "its invariants are not judged: the baseline run exists to show the outage";

  /** One figure of both runs, with the main run's unit and clock. */
  public record Row(String name, double main, double baseline, String unit, String clock) {}

  /**
   * Runs the baseline of {@code scenario} with {@code runner} (the one the main run used, with the
   * same attachments) in {@code mainRunDir}/baseline. Failures are recorded, not thrown, so that the
   * main run's result is still printed and written.
   *
   * @throws IllegalArgumentException when the scenario names no baseline
   */
  public static BaselineRun run(ScenarioRunner runner, Scenario scenario, Path mainRunDir, PrintStream progress)
      throws InterruptedException {
    if (scenario.baseline() == null) {
      throw new IllegalArgumentException("scenario " + scenario.name() + " names no control-plane.baseline");
    }
    Path dir = mainRunDir.resolve(FOLDER);
    progress.printf("baseline of %s: the same scenario with control-plane.takeover = %s on a fresh rack, in %s (%s)%n",
        scenario.name(), text(scenario.baseline()), dir, NOT_JUDGED);
    Outcome outcome;
    try {
      outcome = runner.run(scenario.baselineRun(), dir, progress);
    } catch (InterruptedException e) {
      throw e;
    } catch (Exception e) {
      String why = e.getMessage() == null ? e.toString() : e.getMessage();
      return new BaselineRun(scenario.takeover(), scenario.baseline(), dir, null,
          "the baseline run (takeover = " + text(scenario.baseline()) + ") failed: " + why);
    }
    String error = outcome.result().finished() ? null : "the baseline run (takeover = " + text(scenario.baseline())
        + ") did not finish within run.wall-limit = " + Durations.text(scenario.run().wallLimitNs());
    return new BaselineRun(scenario.takeover(), scenario.baseline(), dir, outcome, error);
  }

  public boolean failed() {
    return error != null;
  }

  /**
   * The figures of the take-over, the NIC stream and the control-plane requests ({@code takeover*},
   * {@code nic.*}, {@code control.*}) that both runs have, in the main run's order; none when the
   * baseline has no outcome.
   */
  public List<Row> rows(List<Figure> main) {
    return outcome == null ? List.of() : rows(main, outcome.figures());
  }

  static List<Row> rows(List<Figure> main, List<Figure> baseline) {
    Map<String, Figure> other = baseline.stream().collect(Collectors.toMap(Figure::name, Function.identity(),
        (a, b) -> a, LinkedHashMap::new));
    List<Row> rows = new ArrayList<>();
    for (Figure f : main) {
      Figure b = other.get(f.name());
      if (b != null && compared(f.name())) {
        rows.add(new Row(f.name(), f.value(), b.value(), f.unit(), f.clock()));
      }
    }
    return rows;
  }

  private static boolean compared(String figure) {
    return figure.startsWith("takeover") || figure.startsWith("nic.") || figure.startsWith("control.");
  }

  /**
   * The side-by-side table (figure | main mode | baseline mode | unit | clock) under a line that
   * says what the baseline is, or the error when there is no baseline to show.
   */
  public String table(List<Figure> main) {
    StringBuilder b = new StringBuilder();
    if (failed()) {
      b.append("BASELINE RUN FAILED: ").append(error).append('\n');
    }
    if (outcome == null) {
      return b.toString();
    }
    b.append(String.format("side by side: control-plane.takeover = %s (this run) and its baseline %s (%s; %s)%n",
        text(takeover), text(baseline), runDir, NOT_JUDGED));
    List<Row> rows = rows(main);
    if (rows.isEmpty()) {
      b.append("  no take-over or nic-stream figure in both runs\n");
      return b.toString();
    }
    int width = Math.max("figure".length(), rows.stream().mapToInt(r -> r.name().length()).max().orElse(0));
    String format = "%-" + width + "s %16s %16s  %-9s %s%n";
    b.append(String.format(format, "figure", text(takeover), text(baseline), "unit", "clock"));
    for (Row r : rows) {
      b.append(String.format(format, r.name(), Figure.text(r.main()), Figure.text(r.baseline()), r.unit(),
          r.clock()));
    }
    return b.toString();
  }

  /**
   * The baseline's part of the JSON result: its take-over mode, folder, whether it finished, the
   * error if any, every figure it produced and its notes.
   */
  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("takeover", text(baseline));
    m.put("run_dir", runDir.toString());
    m.put("finished", outcome != null && outcome.result().finished());
    m.put("error", error);
    m.put("invariants", NOT_JUDGED);
    m.put("figures", outcome == null ? List.of() : outcome.figures().stream().map(Figure::toMap).toList());
    m.put("notes", outcome == null ? List.of() : outcome.result().notes());
    return m;
  }

  /**
   * The main run's JSON result with {@code "baseline"} right after its {@code "figures"} (at the
   * end when it has none): every other key keeps its place.
   */
  public Map<String, Object> into(Map<String, Object> result) {
    Map<String, Object> out = new LinkedHashMap<>();
    result.forEach((k, v) -> {
      out.put(k, v);
      if (k.equals("figures")) {
        out.put("baseline", toJson());
      }
    });
    out.putIfAbsent("baseline", toJson());
    return out;
  }

  /** A take-over mode as scenario files write it. */
  public static String text(Takeover t) {
    return t == null ? "settings" : t.name().toLowerCase(Locale.ROOT);
  }
}
