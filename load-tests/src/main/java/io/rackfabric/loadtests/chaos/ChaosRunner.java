package io.rackfabric.loadtests.chaos;

import io.rackfabric.loadtests.scenario.language.Durations;
import io.rackfabric.loadtests.scenario.language.KindCatalog;
import io.rackfabric.loadtests.scenario.language.Mode;
import io.rackfabric.loadtests.harness.Interruption;
import io.rackfabric.loadtests.report.AtomicFiles;
import io.rackfabric.loadtests.report.Json;
import io.rackfabric.loadtests.scenario.FaultRecord;
import io.rackfabric.loadtests.scenario.ResultJson;
import io.rackfabric.loadtests.scenario.RunFiles;
import io.rackfabric.loadtests.scenario.RunProgress;
import io.rackfabric.loadtests.scenario.ScenarioRunner;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Checked;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a campaign: every scenario with every seed, up to {@code parallel} single-JVM runs at once
 * (each in an actor system of its own), multi-JVM runs one at a time once the others are done.
 * Each run's progress goes to {@code RUN_DIR/SCENARIO-seedN/progress.log}, its result.json and
 * report.html next to it; the console gets one line per finished run, and a line on how many are
 * done every {@link #PROGRESS_S} seconds.
 */
public final class ChaosRunner {

  /**
   * What one run came to.
   *
   * @param firstFault when the seed put the first fault: a model time, "wall T", or "-"
   * @param broken the invariants that failed, by label
   * @param faultsApplied fault steps applied (failed ones included)
   * @param error why the run could not finish (an exception), or null
   */
  public record RunRecord(String scenario, String argument, long seed, String firstFault, boolean passed,
      boolean finished,
      int faultsApplied, List<String> broken, double wallSeconds, Path runDir, String error) {

    public RunRecord {
      broken = List.copyOf(broken);
    }
  }

  /** Seconds between the campaign's progress lines. */
  private static final long PROGRESS_S = 15;

  private final KindCatalog<FaultType, InvariantType, FigureType> catalog;
  private final Interruption interruption;

  public ChaosRunner(KindCatalog<FaultType, InvariantType, FigureType> catalog) {
    this(catalog, Interruption.none());
  }

  /** Each run's {@code result.json} is written unfinished if {@code interruption} comes first. */
  public ChaosRunner(KindCatalog<FaultType, InvariantType, FigureType> catalog, Interruption interruption) {
    this.catalog = catalog;
    this.interruption = interruption;
  }

  /** Runs every run of {@code campaign}; the records in the campaign's order. */
  public List<RunRecord> run(Campaign campaign, Path runDir, PrintStream progress) throws Exception {
    List<Campaign.Run> single = campaign.runs().stream().filter(r -> r.scenario().mode() == Mode.SINGLE_JVM).toList();
    List<Campaign.Run> multi = campaign.runs().stream().filter(r -> r.scenario().mode() == Mode.MULTI_JVM).toList();
    int total = campaign.runs().size();
    AtomicInteger done = new AtomicInteger();
    long t0 = System.nanoTime();
    // A campaign can run for many minutes between two finished runs: say it is alive.
    ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "chaos-progress");
      t.setDaemon(true);
      return t;
    });
    ticker.scheduleAtFixedRate(() -> {
      synchronized (progress) {
        progress.printf("  %.0f s: %d of %d run(s) done%n", (System.nanoTime() - t0) / 1e9, done.get(), total);
      }
    }, PROGRESS_S, PROGRESS_S, TimeUnit.SECONDS);
    List<Future<RunRecord>> futures = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(campaign.parallel(), r -> {
      Thread t = new Thread(r, "chaos-run");
      t.setDaemon(true);
      return t;
    });
    try {
      for (Campaign.Run r : single) {
        futures.add(pool.submit(() -> report(runOne(r, runDir), done, total, progress)));
      }
      List<RunRecord> records = new ArrayList<>();
      for (Future<RunRecord> f : futures) {
        records.add(f.get());
      }
      for (Campaign.Run r : multi) {
        records.add(report(runOne(r, runDir), done, total, progress));
      }
      // Back in the campaign's order.
      List<RunRecord> ordered = new ArrayList<>();
      for (Campaign.Run r : campaign.runs()) {
        records.stream().filter(x -> x.argument().equals(r.argument()) && x.seed() == r.seed()).findFirst()
            .ifPresent(ordered::add);
      }
      return ordered;
    } finally {
      ticker.shutdownNow();
      pool.shutdownNow();
    }
  }

  private RunRecord runOne(Campaign.Run r, Path campaignDir) throws IOException {
    Path dir = campaignDir.resolve(r.scenario().name() + "-seed" + r.seed());
    Files.createDirectories(dir);
    long t0 = System.nanoTime();
    try (OutputStream log = Files.newOutputStream(dir.resolve("progress.log"));
        PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8)) {
      try {
        try {
          // The run's folder replays it alone (rack run --replay), like a run of rack run's.
          FaultRecord.saveScenario(dir, ScenarioLoader.text(r.argument()), r.scenario());
        } catch (IOException e) {
          out.println("no copy of the scenario in the run's folder (it cannot be replayed): " + e);
        }
        RunProgress watch = new RunProgress();
        Interruption.Partial partial = interruption.onInterrupt(() -> AtomicFiles.writeString(
            dir.resolve(RunFiles.RESULT), Json.write(ResultJson.interrupted(r.scenario(), watch))));
        Outcome o;
        try {
          o = new ScenarioRunner(catalog).run(r.scenario(), dir, out, watch);
        } catch (Exception e) {
          partial.cancel();
          throw e;
        }
        List<String> broken = o.invariants().stream().filter(c -> !c.verdict().pass())
            .map(c -> c.spec().label()).toList();
        for (Checked c : o.invariants()) {
          out.printf("%s  %s: %s%n", c.verdict().pass() ? "pass" : "FAIL", c.spec().label(), c.verdict().detail());
        }
        partial.complete(() -> {
          try {
            out.println("wrote " + RunFiles.write(dir, o, null));
          } catch (IOException | RuntimeException e) {
            out.println("no result.json or report.html: " + e);
          }
        });
        return new RunRecord(r.scenario().name(), r.argument(), r.seed(), firstFault(r), o.passed(),
            o.result().finished(),
            o.result().faults().size(), broken, (System.nanoTime() - t0) / 1e9, dir, null);
      } catch (Exception e) {
        out.println("the run stopped: " + e);
        return new RunRecord(r.scenario().name(), r.argument(), r.seed(), firstFault(r), false, false, 0, List.of(),
            (System.nanoTime() - t0) / 1e9, dir, String.valueOf(e.getMessage()));
      }
    }
  }

  private static String firstFault(Campaign.Run r) {
    return r.scenario().faults().stream()
        .min((a, b) -> Long.compare(a.steps().get(0), b.steps().get(0)))
        .map(f -> (f.at().isModel() ? "" : "wall ") + Durations.text(f.steps().get(0)))
        .orElse("-");
  }

  private static RunRecord report(RunRecord rec, AtomicInteger done, int total, PrintStream progress) {
    synchronized (progress) {
      progress.printf("  [%d/%d] %s seed %d: %s in %.1f s%s%n", done.incrementAndGet(), total, rec.scenario(),
          rec.seed(), rec.passed() ? "pass" : "FAIL", rec.wallSeconds(),
          rec.error() != null ? " (" + rec.error() + ")" : rec.broken().isEmpty() ? "" : " " + rec.broken());
    }
    return rec;
  }
}
