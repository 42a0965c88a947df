package io.rackfabric.loadtests.bench.jmh;

import io.rackfabric.loadtests.report.AtomicFiles;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.report.Json;
import io.rackfabric.loadtests.report.Machine;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;
import org.openjdk.jmh.util.Version;

/**
 * {@code rack bench jmh}: the micro-benchmarks of the pure domain code, run through the JMH
 * runner in one forked JVM per benchmark, average time per operation. Prints a table and writes the figures with the machine and the run's
 * settings as JSON, which {@code rack bench compare} sets against another run.
 */
public final class JmhBench {

  /** Every benchmark class; the test calls each of their benchmark methods once. */
  public static final List<Class<?>> BENCHMARKS = List.of(RoutingBench.class, NtbBench.class, IommuBench.class,
      CreditBench.class, WireCalendarBench.class, TlpBench.class);

  /** How long a run warms up and measures each benchmark. */
  record Timing(int warmupIterations, long warmupMs, int measurementIterations, long measurementMs) {
    /**
     * The default: 4 s a benchmark, under two minutes for all of them on two cores. Five measured
     * iterations rather than fewer longer ones, because JMH's 99.9% error over n iterations
     * shrinks with Student's t for n - 1 degrees of freedom (31.6 for n = 3, 8.6 for n = 5).
     */
    static final Timing DEFAULT = new Timing(3, 500, 5, 500);
    /** A smoke run: the figures are rough. */
    static final Timing QUICK = new Timing(1, 200, 3, 200);
  }

  /** One benchmark's result. */
  record Measured(String name, double score, double error, String unit, long samples) {
    Map<String, Object> toMap() {
      Map<String, Object> m = new Figure(name, score, unit, "wall").toMap();
      // The half-width of JMH's 99.9% confidence interval; null when there were too few samples.
      m.put("error", error);
      m.put("samples", samples);
      return m;
    }
  }

  private JmhBench() {}

  /**
   * Runs the {@code selected} benchmarks ("class.method", from {@link #select}).
   *
   * @param only the pattern they were selected by, for the result file, or null for all
   * @param quick a smoke run's short timing: rough figures
   * @param verbose JMH's own progress output
   * @param json the result file, or null
   */
  public static int run(List<String> selected, String only, boolean quick, boolean verbose, Path json,
      PrintStream out) throws Exception {
    Timing timing = quick ? Timing.QUICK : Timing.DEFAULT;

    out.printf("rack bench jmh: %d benchmarks, %d x %d ms warm-up, %d x %d ms measured, 1 fork each%n",
        selected.size(), timing.warmupIterations(), timing.warmupMs(), timing.measurementIterations(),
        timing.measurementMs());
    ChainedOptionsBuilder options = new OptionsBuilder()
        .mode(Mode.AverageTime)
        .timeUnit(TimeUnit.NANOSECONDS)
        .forks(1)
        .threads(1)
        .warmupIterations(timing.warmupIterations())
        .warmupTime(TimeValue.milliseconds(timing.warmupMs()))
        .measurementIterations(timing.measurementIterations())
        .measurementTime(TimeValue.milliseconds(timing.measurementMs()))
        .shouldFailOnError(true);
    for (String benchmark : selected) {
      // JMH finds includes in "class.method" and runs the union of them.
      options.include(Pattern.quote(benchmark) + "$");
    }
    double loadBefore = loadAverage();
    VerboseMode verbosity = verbose ? VerboseMode.NORMAL : VerboseMode.SILENT;
    Collection<RunResult> results =
        new Runner(options.build(), OutputFormatFactory.createFormatInstance(out, verbosity)).run();
    List<Measured> figures = new ArrayList<>();
    for (RunResult r : results) {
      Result<?> primary = r.getPrimaryResult();
      figures.add(new Measured(figureName(r.getParams().getBenchmark()), primary.getScore(),
          primary.getScoreError(), primary.getScoreUnit(), primary.getSampleCount()));
    }
    double[] load = {loadBefore, loadAverage()};
    out.println();
    out.print(table(figures));
    int cores = Runtime.getRuntime().availableProcessors();
    out.printf(Locale.ROOT, "system load average %.1f before, %.1f after, on %d cores%s%n", load[0], load[1], cores,
        Math.max(load[0], load[1]) > cores ? ": other processes shared the CPUs, so the figures vary more than usual" : "");
    if (json != null) {
      AtomicFiles.writeString(json, Json.write(document(figures, timing, only, Instant.now(), load)));
      out.println("wrote " + json);
    }
    return 0;
  }

  /** The benchmarks ("class.method") whose figure names {@code only} finds, in figure-name order. */
  public static List<String> select(Pattern only) {
    List<String> out = new ArrayList<>();
    for (Class<?> c : BENCHMARKS) {
      for (Method m : c.getDeclaredMethods()) {
        String benchmark = c.getName() + "." + m.getName();
        if (m.isAnnotationPresent(Benchmark.class) && only.matcher(figureName(benchmark)).find()) {
          out.add(benchmark);
        }
      }
    }
    out.sort(Comparator.comparing(JmhBench::figureName));
    return out;
  }

  /** "io...jmh.RoutingBench.memWriteToNtbPort" as "routing.memWriteToNtbPort". */
  public static String figureName(String benchmark) {
    String[] parts = benchmark.split("\\.");
    String cls = parts[parts.length - 2];
    String group = cls.endsWith("Bench") ? cls.substring(0, cls.length() - "Bench".length()) : cls;
    return Character.toLowerCase(group.charAt(0)) + group.substring(1) + "." + parts[parts.length - 1];
  }

  static String table(List<Measured> figures) {
    StringBuilder b = new StringBuilder();
    b.append(String.format("%-34s %12s %10s  %s%n", "benchmark", "score", "error", "unit"));
    for (Measured m : figures) {
      b.append(String.format(Locale.ROOT, "%-34s %12.2f %10s  %s%n", m.name(), m.score(),
          Double.isNaN(m.error()) ? "-" : String.format(Locale.ROOT, "± %.2f", m.error()), m.unit()));
    }
    return b.toString();
  }

  /**
   * @param only the --only pattern the benchmarks were picked by, or null for all of them
   * @param load the system's load average before and after the run: figures measured on a busy
   *     machine are not comparable with a quiet one's, and the file should say so
   */
  static Map<String, Object> document(List<Measured> figures, Timing timing, String only, Instant at,
      double[] load) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("benchmark", "jmh");
    doc.put("date", at.toString());
    Map<String, Object> machine = new LinkedHashMap<>(Machine.describe());
    machine.put("cpu", cpuModel());
    machine.put("load_average_before", load[0]);
    machine.put("load_average_after", load[1]);
    doc.put("machine", machine);
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("jmh", Version.getPlainVersion());
    params.put("mode", "average time per operation, one thread");
    params.put("forks", 1);
    params.put("warmup_iterations", timing.warmupIterations());
    params.put("warmup_ms", timing.warmupMs());
    params.put("measurement_iterations", timing.measurementIterations());
    params.put("measurement_ms", timing.measurementMs());
    params.put("compute_hosts", LadonFixture.COMPUTE_HOSTS);
    if (only != null) {
      params.put("only", only);
    }
    doc.put("parameters", params);
    doc.put("figures", figures.stream().map(Measured::toMap).toList());
    return doc;
  }

  /** The system load average of the last minute, or -1 where the OS does not tell. */
  private static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  /** The processor's model name where the OS tells it (Linux), else null. */
  private static String cpuModel() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException | RuntimeException e) {
      // Not Linux, or not readable: the rest of the description stands.
    }
    return null;
  }
}
