package io.rackfabric.loadtests.scenario;

import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.cli.NodeCommand;
import io.rackfabric.cluster.cli.UsageException;
import io.rackfabric.cluster.node.ClusterSettings;
import io.rackfabric.loadtests.scenario.language.FaultKind;
import io.rackfabric.loadtests.scenario.language.KindCatalog;
import io.rackfabric.loadtests.scenario.language.Mode;
import io.rackfabric.loadtests.scenario.language.Param;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioException;
import io.rackfabric.loadtests.scenario.language.ScenarioKind;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.loadtests.scenario.language.ScenarioSettings;
import io.rackfabric.loadtests.harness.Interruption;
import io.rackfabric.loadtests.harness.NetnsUnavailableException;
import io.rackfabric.loadtests.harness.RunLogs;
import io.rackfabric.loadtests.report.AtomicFiles;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Checked;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.RunResult.AppliedFault;
import io.rackfabric.loadtests.scenario.ftgm.FtgmReport;
import io.rackfabric.persistence.journal.JournalPaths;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What {@code rack run SCENARIO} does once its flags are parsed (the command line is
 * {@code loadtests.cli.RunRackCommand}): checks a scenario file (every problem reported as
 * {@code file:line: key: reason}, nothing started, exit 2), runs it, prints its figures and
 * invariants, and exits 0 when every invariant held, 1 when one failed, 3 when the run needs network
 * namespaces this machine cannot make. A scenario that names a
 * {@code control-plane.baseline} runs once more with that take-over mode ({@link BaselineRun}): its
 * figures beside the main ones, in the table and the JSON. The run's folder gets a copy of the
 * scenario, {@code result.json} with the run's {@link FaultRecord}, and the HTML report
 * {@code report.html} ({@link RunFiles}). {@code --replay RUN_DIR} runs a recorded run again from
 * its folder ({@link Replay}). {@code --check} also refuses a scenario asked to be reproducible
 * ({@code run.reproducible}, default true) that has a wall-time fault; a run of one says so and
 * goes on. Akka's log lines go to {@code RUN/logs/driver.log}, only errors to the terminal ({@link
 * RunLogs}). {@code --set KEY=VALUE} (repeatable) gives rackfabric.* settings over the scenario's
 * {@code settings} block ({@link ScenarioSettings}). A {@code --run-dir} that holds a journal from
 * an earlier run is refused (exit 2) unless {@code --reuse-run-dir} asks to delete it first.
 * Progress goes to stderr.
 *
 * <p>Ctrl-C (SIGINT) or SIGTERM during a run prints "interrupted" with the model time reached and
 * writes {@code result.json} (and the {@code --json} file) marked {@code "finished": false,
 * "interrupted": true} with what was measured so far ({@link Interruption}); the exit status is
 * the signal's, 130 for SIGINT and 143 for SIGTERM. Every result file is written atomically
 * ({@link AtomicFiles}): a reader sees the old file, the whole new one or none.
 */
public final class RunCommand {

  /** What {@code rack run} returns when the JVM is being stopped under it (Ctrl-C: exit 130). */
  static final int INTERRUPTED = 130;

  /**
   * Where a run (or a replay) puts its results and whether it only checks.
   *
   * @param json also write the results to this file, or null
   * @param runDir the run's folder, or null for {@code target/rack-runs/NAME-TIME}
   * @param reuseRunDir delete the journal an earlier run left in {@code runDir} first
   * @param check load and check only, run nothing
   */
  public record Options(Path json, Path runDir, boolean reuseRunDir, boolean check) {}

  /**
   * Loads the scenario {@code arg} (a file, else a bundled name) with the command line's
   * {@code overrides}, then checks or runs it. Returns the exit status.
   */
  public int run(String arg, ScenarioOptions overrides, Options options, PrintStream out, PrintStream err)
      throws Exception {
    Scenario scenario;
    try {
      scenario = ScenarioLoader.loadFileOrBundled(arg, catalog(), overrides);
    } catch (ScenarioException e) {
      e.problems().forEach(err::println);
      return 2;
    }
    checkTls(scenario, overrides.tlsDir() != null);
    if (options.check() && !scenario.reproducibilityProblems().isEmpty()) {
      scenario.reproducibilityProblems().forEach(err::println);
      return 2;
    }
    if (options.check() && scenario.inProcess()) {
      out.println(scenario.source() + ": ok (ftgm-campaign of " + scenario.ftgmCampaign().spec().faults()
          + " faults, modes " + scenario.ftgmCampaign().modes() + ", " + scenario.invariants().size()
          + " invariants, in-process)");
      return 0;
    }
    if (options.check()) {
      out.println(scenario.source() + ": ok (" + scenario.traffic().size() + " generators, " + scenario.faults().size()
          + " faults, " + scenario.invariants().size() + " invariants, " + scenario.mode()
          + (scenario.baseline() == null ? "" : "; then its baseline with takeover = " + BaselineRun.text(scenario.baseline()))
          + ")");
      scenario.faultSchedule().forEach(out::println);
      scenario.settings().forEach((k, v) -> out.println("setting " + k + " = " + v));
      return 0;
    }
    scenario.reproducibilityProblems().forEach(p -> err.println("warning: " + p));
    Path runDir = options.runDir() != null ? options.runDir()
        : Path.of("target", "rack-runs", scenario.name() + "-" + Instant.now().toString().replace(':', '-'));
    String text = null;
    if (!scenario.inProcess()) {
      try {
        text = ScenarioLoader.text(arg);
      } catch (IOException e) {
        err.println("could not read the scenario again to copy it into the run's folder (the run cannot be"
            + " replayed): " + e.getMessage());
      }
    }
    return runAndReport(scenario, text, runDir, options.reuseRunDir(), options.json(), null, null, out, err);
  }

  /**
   * The run recorded in {@code recorded} (a run folder) again, into a folder of its own; {@code
   * tlsDir} is the rack's keys for a multi-JVM run over tls-tcp, or null. Returns the exit status.
   */
  public int replay(String recorded, String tlsDir, Options options, PrintStream out, PrintStream err)
      throws Exception {
    Replay.Loaded replay;
    try {
      replay = Replay.load(recorded, catalog(), tlsDir);
    } catch (ScenarioException e) {
      err.println("rack run --replay: the run's copy of its scenario does not load in this build:");
      e.problems().forEach(err::println);
      return 2;
    }
    Scenario scenario = replay.scenario();
    checkTls(scenario, tlsDir != null);
    if (options.check()) {
      out.println(replay.dir() + ": ok (replay of " + scenario.name() + ", " + scenario.mode() + ", seed "
          + scenario.seed() + ", " + scenario.faults().size() + " recorded faults at their model times)");
      scenario.faultSchedule().forEach(out::println);
      return 0;
    }
    Path runDir = options.runDir() != null ? options.runDir()
        : Path.of("target", "rack-runs", scenario.name() + "-replay-" + Instant.now().toString().replace(':', '-'));
    if (runDir.toAbsolutePath().normalize().equals(replay.dir())) {
      throw new UsageException("--run-dir is the folder being replayed; give the replay a folder of its own");
    }
    out.println("replay of " + replay.dir());
    return runAndReport(scenario, replay.text(), runDir, options.reuseRunDir(), options.json(), replay.dir(),
        replay.recorded(), out, err);
  }

  /**
   * A multi-JVM run over tls-tcp opens the rack's stores now, so that a missing one or a wrong
   * password is refused (exit 2, naming the path) before any JVM starts; {@code --tls-dir} for any
   * other run is refused as meaningless.
   */
  private static void checkTls(Scenario scenario, boolean tlsDirGiven) throws UsageException {
    boolean tls = scenario.mode() == Mode.MULTI_JVM && scenario.multiJvm().transport().equals(ClusterSettings.TLS);
    if (tls) {
      NodeCommand.clusterSettings(ConfigFactory.load(), ClusterSettings.TLS, scenario.multiJvm().tlsDir());
    } else if (tlsDirGiven) {
      throw new UsageException("--tls-dir is for multi-JVM runs over tls-tcp (this run: " + scenario.mode()
          + (scenario.mode() == Mode.MULTI_JVM ? " over " + scenario.multiJvm().transport() : "") + ")");
    }
  }

  /**
   * Runs a loaded scenario (its text copied into the run's folder first), prints and writes its
   * results; for a replay ({@code replayOf} not null) also how its figures compare with the record's.
   */
  private int runAndReport(Scenario scenario, String text, Path runDir, boolean reuseRunDir, Path json,
      Path replayOf, Map<String, Object> recorded, PrintStream out, PrintStream err) throws Exception {
    checkRunDir(runDir);
    checkJournal(runDir, reuseRunDir, err);
    try (Interruption interruption = Interruption.install("rack run " + scenario.name(), err);
        RunLogs logs = RunLogs.open(runDir)) {
      try {
        return runAndReport(scenario, text, runDir, json, replayOf, recorded, interruption, out, err);
      } finally {
        out.println(logs.summary());
      }
    }
  }

  private int runAndReport(Scenario scenario, String text, Path runDir, Path json, Path replayOf,
      Map<String, Object> recorded, Interruption interruption, PrintStream out, PrintStream err) throws Exception {
    RunProgress watch = new RunProgress();
    Interruption.Partial partial = interruption.onInterrupt(
        () -> RunFiles.writeInterrupted(scenario, watch, runDir, json, err));
    if (text != null) {
      try {
        FaultRecord.saveScenario(runDir, text, scenario);
      } catch (IOException e) {
        err.println("could not copy the scenario into " + runDir + " (the run cannot be replayed): " + e);
      }
    }
    ScenarioRunner runner = new ScenarioRunner(catalog());
    Outcome outcome;
    try {
      outcome = runner.run(scenario, runDir, err, watch);
    } catch (NetnsUnavailableException e) {
      partial.cancel();
      err.println("rack run " + scenario.name() + ": refused: " + e.getMessage());
      return 3;
    }
    print(outcome, out);
    BaselineRun baseline = null;
    if (scenario.baseline() != null) {
      baseline = BaselineRun.run(runner, scenario, runDir, err);
      out.println();
      out.print(baseline.table(outcome.figures()));
    }
    if (recorded != null) {
      List<String> differ = Replay.differences(recorded, outcome.figures());
      out.println(differ.isEmpty() ? "replay: every model-time and count figure as recorded"
          : "replay: " + differ.size() + " model-time or count figure(s) differ from the record:");
      differ.forEach(d -> out.println("  " + d));
    }
    BaselineRun base = baseline;
    boolean whole = partial.complete(() -> {
      try {
        Path report = RunFiles.write(runDir, outcome, base, replayOf);
        out.println("wrote " + runDir.resolve(RunFiles.RESULT) + " and " + report);
      } catch (IOException | RuntimeException e) {
        // The verdict stands without the files; say what is missing rather than lose the run's output.
        err.println("could not write " + runDir.resolve(RunFiles.RESULT) + " or its report.html: " + e);
      }
      if (json != null) {
        AtomicFiles.writeString(json, RunFiles.json(outcome, base, runDir, replayOf));
        out.println("wrote " + json);
      }
    });
    if (!whole) {
      return INTERRUPTED; // the JVM is stopping; its exit status is the signal's
    }
    return outcome.passed() && (baseline == null || !baseline.failed()) ? 0 : 1;
  }

  /**
   * Refuses a run folder whose journal folder ({@code RUN_DIR/data}) H2 would misread in the
   * journal's URL ({@link JournalPaths}), before anything is written or started: otherwise the
   * rack, or each node JVM, would fail on it deep inside the run.
   */
  public static void checkRunDir(Path runDir) throws UsageException {
    try {
      JournalPaths.folder(runDir.resolve("data"));
    } catch (IllegalArgumentException e) {
      throw new UsageException("run folder " + JournalPaths.printable(runDir.toString()) + " refused: "
          + e.getMessage() + "; give the run another folder with --run-dir");
    }
  }

  /**
   * Refuses a run folder that already holds a journal ({@code RUN_DIR/data/*.mv.db}) from an
   * earlier run, before anything is written or started: the run would reopen it and fail later
   * (its hosts "already known"). With {@code reuse}, deletes those files, and nothing else of the
   * folder, so that the run starts from an empty journal.
   */
  static void checkJournal(Path runDir, boolean reuse, PrintStream err) throws IOException, UsageException {
    Path data = runDir.resolve("data");
    if (!Files.isDirectory(data)) {
      return;
    }
    List<Path> journal;
    try (Stream<Path> files = Files.list(data)) {
      journal = files.filter(f -> f.getFileName().toString().endsWith(".mv.db") && Files.isRegularFile(f))
          .sorted().toList();
    }
    if (journal.isEmpty()) {
      return;
    }
    String names = journal.stream().map(f -> runDir.relativize(f).toString()).collect(Collectors.joining(", "));
    if (!reuse) {
      throw new UsageException("run folder " + runDir + " already holds a journal from an earlier run (" + names
          + "), which the run would reopen; choose another --run-dir, or pass --reuse-run-dir to delete its"
          + " data/*.mv.db and start from an empty journal");
    }
    for (Path f : journal) {
      Files.delete(f);
    }
    err.println("rack run: --reuse-run-dir: deleted the journal of " + runDir + " (" + names + ")");
  }

  private static KindCatalog<FaultType, InvariantType, FigureType> catalog() {
    return ScenarioKinds.standard();
  }

  private static void print(Outcome outcome, PrintStream out) {
    if (outcome.result().ftgm() != null) {
      FtgmReport.print(outcome.result().ftgm(), out);
    }
    out.println();
    Map<String, String> paper = paperValues(outcome.result());
    out.printf("%-52s %16s  %-9s %s%n", "figure", "value", "unit", "clock");
    for (Figure f : outcome.figures()) {
      String beside = paper.containsKey(f.name()) ? "   " + paper.get(f.name()) : "";
      out.printf("%-52s %16s  %-9s %s%s%n", f.name(), Figure.text(f.value()), f.unit(), f.clock(), beside);
    }
    if (!outcome.result().faults().isEmpty()) {
      out.println();
      out.printf("%-44s %-6s %-28s %10s  %s%n", "fault applied", "step", "model time", "wall", "note");
      for (AppliedFault f : outcome.result().faults()) {
        out.printf("%-44s %-6s %-28s %10s  %s%n", f.spec().label(), (f.step() + 1) + "/" + f.spec().steps().size(),
            f.modelText(), f.wallAtNanos() < 0 ? "-" : String.format("%.3f s", f.wallAtNanos() / 1e9), f.note());
      }
    }
    out.println();
    for (Checked c : outcome.invariants()) {
      out.printf("%s  %s: %s%n", c.verdict().pass() ? "pass" : "FAIL", c.spec().label(), c.verdict().detail());
    }
    for (String note : outcome.result().notes()) {
      out.println("note: " + note);
    }
    out.println(outcome.passed() ? "every invariant held" : "AN INVARIANT FAILED");
  }

  /** The paper's values the run's figure producers set beside their figures, by figure name. */
  private static Map<String, String> paperValues(RunResult result) {
    Map<String, String> paper = new HashMap<>();
    KindCatalog<FaultType, InvariantType, FigureType> catalog = catalog();
    for (String name : result.scenario().figures()) {
      catalog.figure(name).ifPresent(k -> paper.putAll(k.paperValues(result)));
    }
    return paper;
  }

  /** {@code rack run --kinds}: every fault, invariant and figure kind of the standard catalog with its keys. */
  public static void printKinds(PrintStream out) {
    KindCatalog<?, ?, ?> catalog = catalog();
    out.println("fault kinds (common keys: kind, target, at; or drawn by random-faults with rates per kind):");
    for (FaultKind k : catalog.faults()) {
      kind(k, "target: " + k.target().description() + (k.needsMultiJvm() ? "; multi-jvm only" : "")
          + k.notRandom().map(why -> "; not in random-faults: " + why).orElse(""), out);
    }
    out.println("invariant kinds (common key: kind; a bare name takes the defaults):");
    catalog.invariants().forEach(k -> kind(k, null, out));
    out.println("figure producers (default: " + String.join(", ", catalog.defaultFigures()) + "):");
    catalog.figures().forEach(k -> kind(k, null, out));
  }

  private static void kind(ScenarioKind k, String extra, PrintStream out) {
    out.printf("  %-30s %s%n", k.name(), k.summary());
    if (extra != null) {
      out.printf("  %-30s %s%n", "", extra);
    }
    Collection<Param> params = k.params();
    for (Param p : params) {
      out.printf("  %-30s   %s = %s: %s%n", "", p.name(), p.required() ? "(required)"
          : p.dflt() == null ? "(optional)" : p.dflt(), p.doc() + " [" + p.type().text() + "]");
    }
  }
}
