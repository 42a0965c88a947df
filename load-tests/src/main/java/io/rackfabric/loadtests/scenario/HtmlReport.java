package io.rackfabric.loadtests.scenario;

import io.rackfabric.loadtests.scenario.language.Durations;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.stats.Latencies;
import io.rackfabric.host.controlplane.TakeoverBreakdown;
import io.rackfabric.host.failover.FailoverBreakdown;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.report.html.HtmlPage;
import io.rackfabric.loadtests.report.html.HtmlPage.Cell;
import io.rackfabric.loadtests.report.html.HtmlPage.Row;
import io.rackfabric.loadtests.report.html.SvgPlot;
import io.rackfabric.loadtests.report.html.SvgTimeline;
import io.rackfabric.loadtests.report.html.TimeScale;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Checked;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.NicStreamResult;
import io.rackfabric.loadtests.scenario.api.NicStreamSeries;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.RunResult.AppliedFault;
import io.rackfabric.host.device.gpu.GpuCopyPlan;
import io.rackfabric.loadtests.scenario.figure.DmaBandwidthFigures;
import io.rackfabric.loadtests.scenario.figure.FailoverFigures;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * The HTML report of one {@code rack run}: summary, invariants, faults applied, plots of what the
 * run recorded, figures and notes, and for a scenario with a baseline the baseline's figures and
 * plots beside the run's. Each plot is there only when the run has its data: the NIC stream's
 * inter-arrival times (Ladon Fig. 6) and throughput, the gpu-copies' DMA bandwidth against size
 * (Device Lending Fig. 10), the take-over and fail-over timelines, latency histograms of the NIC
 * stream and of each write sink. Every plot's axes say model or wall time; every value plotted
 * was recorded by the run (or is a median of what it recorded), none comes from a formula.
 */
public final class HtmlReport {

  /** Latency histogram bars. */
  static final int LATENCY_BINS = 40;

  private HtmlReport() {}

  /** The report of a run, with its baseline beside it when there is one (else null). */
  public static String of(Outcome outcome, BaselineRun baseline) {
    RunResult run = outcome.result();
    Scenario s = run.scenario();
    HtmlPage page = new HtmlPage("rack run " + s.name());
    page.h1("rack run " + s.name());
    if (s.description() != null) {
      page.note(s.description());
    }
    boolean passed = outcome.passed() && (baseline == null || !baseline.failed());
    page.verdict(passed, outcome.passed() ? "every invariant held" : "an invariant failed");
    List<Row> summary = new ArrayList<>();
    summary.add(Row.of("scenario", s.name()));
    summary.add(Row.of("source", s.source()));
    summary.add(Row.of("topology", s.topology().topology().name()));
    summary.add(Row.of("mode", s.inProcess() ? "in-process" : s.mode().text()));
    summary.add(Row.of("seed", Long.toString(s.seed())));
    summary.add(Row.of("finished", run.finished() ? "yes" : "no: hit run.wall-limit"));
    summary.add(Row.of("run time (wall)", String.format("%.1f s", run.wallNanos() / 1e9)));
    page.table("summary", List.of(), summary);

    invariants(page, outcome);
    faults(page, run);
    if (baseline == null) {
      plots(page, outcome, "run", "");
    } else {
      page.h2("baseline", "This run beside its baseline");
      page.note("The baseline is the same scenario with control-plane.takeover = " + BaselineRun.text(baseline.baseline())
          + " on a fresh rack (" + baseline.runDir() + "); its invariants are not judged.");
      if (baseline.failed()) {
        page.verdict(false, "baseline: " + baseline.error());
      }
      List<Row> rows = new ArrayList<>();
      for (BaselineRun.Row r : baseline.rows(outcome.figures())) {
        rows.add(Row.of(r.name(), Figure.text(r.main()), Figure.text(r.baseline()), r.unit(), r.clock()));
      }
      page.table("side-by-side", List.of("figure", BaselineRun.text(baseline.takeover()) + " (this run)",
          BaselineRun.text(baseline.baseline()) + " (baseline)", "unit", "clock"), rows);
      page.open("side").open("run");
      page.h3("this run: takeover = " + BaselineRun.text(baseline.takeover()));
      plots(page, outcome, "run", "");
      page.close();
      if (baseline.outcome() != null) {
        page.open("baseline");
        page.h3("baseline: takeover = " + BaselineRun.text(baseline.baseline()));
        plots(page, baseline.outcome(), "baseline", "baseline: ");
        page.close();
      }
      page.close();
    }
    figures(page, "figures", "Figures", outcome.figures());
    if (baseline != null && baseline.outcome() != null) {
      figures(page, "baseline-figures", "Figures of the baseline", baseline.outcome().figures());
    }
    if (!run.notes().isEmpty()) {
      page.h2("notes", "Notes");
      page.table("notes-table", List.of("note"), run.notes().stream().map(Row::of).toList());
    }
    return page.render();
  }

  /** The file name of a run's or campaign's report, next to its result.json. */
  public static final String REPORT = "report.html";

  private static void invariants(HtmlPage page, Outcome outcome) {
    page.h2("invariants-heading", "Invariants");
    List<Row> rows = new ArrayList<>();
    for (Checked c : outcome.invariants()) {
      rows.add(new Row(List.of(Cell.of(c.spec().label()), Cell.of(c.verdict().pass() ? "pass" : "FAIL"),
          Cell.of(c.verdict().detail())), !c.verdict().pass()));
    }
    page.table("invariants", List.of("invariant", "verdict", "what was seen"), rows);
  }

  private static void faults(HtmlPage page, RunResult run) {
    if (run.faults().isEmpty()) {
      return;
    }
    page.h2("faults-heading", "Faults applied");
    List<Row> rows = new ArrayList<>();
    for (AppliedFault f : run.faults()) {
      rows.add(new Row(List.of(Cell.of(f.spec().label()), Cell.of((f.step() + 1) + "/" + f.spec().steps().size()),
          Cell.of(f.modelText()),
          Cell.of(f.wallAtNanos() < 0 ? "-" : String.format("%.3f s", f.wallAtNanos() / 1e9)), Cell.of(f.note())),
          f.note() != null && f.note().startsWith("FAILED")));
    }
    page.table("faults", List.of("fault", "step", "model time", "applied after (wall)", "note"), rows);
  }

  private static void figures(HtmlPage page, String id, String title, List<Figure> figures) {
    page.h2(id + "-heading", title);
    List<Row> rows = figures.stream()
        .map(f -> Row.of(f.name(), Figure.text(f.value()), f.unit(), f.clock())).toList();
    page.table(id, List.of("figure", "value", "unit", "clock"), rows);
  }

  /** Every plot the run has data for; ids start with {@code prefix}, titles with {@code label}. */
  static void plots(HtmlPage page, Outcome outcome, String prefix, String label) {
    RunResult run = outcome.result();
    List<TakeoverBreakdown> takeovers = outcome.timelines().takeovers();
    for (NicStreamResult s : run.nicStreams()) {
      NicStreamSeries series = s.series();
      if (series == null) {
        continue;
      }
      String id = prefix + "-nic-" + s.host();
      interArrival(page, id + "-interarrival-model", label + "inter-arrival times of " + s.host()
          + "'s UDP stream (model time)", series.modelGaps(), "model", takeovers);
      interArrival(page, id + "-interarrival-wall", label + "inter-arrival times of " + s.host()
          + "'s UDP stream (wall clock)", series.wallGaps(), "wall", List.of());
      throughput(page, id + "-throughput-model", label + s.host() + "'s UDP stream: packets per second (model time)",
          series.modelThroughput(), "model");
      throughput(page, id + "-throughput-wall", label + s.host() + "'s UDP stream: packets per second (wall clock)",
          series.wallThroughput(), "wall");
      latency(page, id + "-latency", label + "one-way latency of " + s.host() + "'s UDP packets (model time)",
          series.latency(), -1, -1, "packets");
    }
    for (DmaBandwidthFigures.Curves c : DmaBandwidthFigures.curves(run)) {
      dmaBandwidth(page, prefix + "-dma-" + c.workload(), label, c);
    }
    if (!takeovers.isEmpty()) {
      page.markup(takeoverTimeline(prefix + "-takeovers", label + "control-plane take-overs (Ladon Table 1)",
          takeovers).render());
    }
    List<FailoverFigures.Round> rounds = outcome.timelines().failovers().stream()
        .filter(r -> r.breakdown() != null).toList();
    for (int i = 0; i < rounds.size(); i++) {
      page.markup(failoverTimeline(prefix + "-failover-" + (i + 1), label + "data-plane fail-over: "
          + rounds.get(i).prefix().replaceAll("\\.$", "") + " (Ladon Table 2)", rounds.get(i).breakdown())
          .render());
    }
    for (String sink : run.sinksOf(run.traffic())) {
      EndpointStats start = run.endpointsAtStart().get(sink);
      EndpointStats end = run.endpointsAtEnd().get(sink);
      if (start == null || end == null || end.writesReceived() == start.writesReceived()) {
        continue;
      }
      Histogram h = Latencies.decode(end.latencyHistogram());
      if (start.writesReceived() > 0) {
        h.subtract(Latencies.decode(start.latencyHistogram()));
      }
      // The histogram keeps 2 digits; the sink's exact extremes hold when it had this run alone.
      boolean exact = start.writesReceived() == 0;
      latency(page, prefix + "-latency-" + sink, label + "one-way latency of the writes into " + sink
          + " (model time)", h, exact ? end.minLatencyNs() : -1, exact ? end.maxLatencyNs() : -1, "writes");
    }
  }

  /**
   * A gpu-copies workload's median bandwidth per direction against the transfer size on a log2
   * axis (Device Lending's Figure 10).
   */
  private static void dmaBandwidth(HtmlPage page, String id, String label, DmaBandwidthFigures.Curves c) {
    if (c.bandwidth().isEmpty()) {
      return;
    }
    SvgPlot plot = new SvgPlot(id, label + "DMA bandwidth of gpu-copies " + c.workload() + " ("
        + (c.throughRoot() ? "through the root" : "shortest path") + "), Device Lending Fig. 10",
        "transfer size (log2 of bytes: 12 = 4 KiB, 20 = 1 MiB, 24 = 16 MiB)",
        "bandwidth (MB/s, model; median of the repeats)").yFromZero();
    c.bandwidth().forEach((direction, bySize) -> {
      double[] xs = bySize.keySet().stream().mapToDouble(size -> Math.log(size) / Math.log(2)).toArray();
      double[] ys = bySize.values().stream().mapToDouble(Double::doubleValue).toArray();
      plot.line(direction.label() + (direction == GpuCopyPlan.Direction.WRITE ? " (device memory to host)"
          : " (host to device memory)"), xs, ys);
    });
    page.markup(plot.render());
  }

  private static void interArrival(HtmlPage page, String id, String title, NicStreamSeries.Gaps gaps, String clock,
      List<TakeoverBreakdown> takeovers) {
    if (gaps.size() == 0) {
      return;
    }
    long span = gaps.at()[gaps.size() - 1];
    TimeScale x = TimeScale.forSpan(span);
    TimeScale y = TimeScale.forSpan(java.util.Arrays.stream(gaps.gap()).max().orElse(0));
    SvgPlot plot = new SvgPlot(id, title, clock + " time since the stream's first arrival (" + x.unit() + ")",
        "gap before the arrival (" + y.unit() + ", " + clock + ")").yFromZero();
    double[] ys = new double[gaps.size()];
    for (int i = 0; i < ys.length; i++) {
      ys[i] = y.of(gaps.gap()[i]);
    }
    plot.scatter("inter-arrival", x.of(gaps.at(), 0), ys);
    for (int i = 0; i < takeovers.size(); i++) {
      TakeoverBreakdown t = takeovers.get(i);
      String n = takeovers.size() > 1 ? " " + (i + 1) : "";
      // The take-over's times are on the same model time line as the frames' arrivals.
      plot.marker(x.of(t.lastHeartbeatAt() - gaps.origin()), "master silent" + n);
      plot.marker(x.of(t.resumedAt() - gaps.origin()), t.host() + " serves" + n);
    }
    page.markup(plot.render());
  }

  private static void throughput(HtmlPage page, String id, String title, NicStreamSeries.Buckets buckets,
      String clock) {
    if (buckets.counts().length == 0) {
      return;
    }
    TimeScale x = TimeScale.forSpan((double) buckets.widthNs() * buckets.counts().length);
    double[] xs = new double[buckets.counts().length];
    double[] ys = new double[xs.length];
    for (int i = 0; i < xs.length; i++) {
      xs[i] = x.of((double) i * buckets.widthNs());
      ys[i] = buckets.rate(i);
    }
    page.markup(new SvgPlot(id, title, clock + " time since the stream's first arrival (" + x.unit() + ")",
        "packets per second (" + clock + ")").yFromZero()
        .bars(String.format("per %.3g %s", x.of(buckets.widthNs()), x.unit()), xs, ys, x.of(buckets.widthNs()))
        .render());
  }

  /**
   * A histogram's recorded values in up to {@link #LATENCY_BINS} bars; {@code exactMin} and
   * {@code exactMax} (-1 when unknown) keep values the histogram rounded inside the true range.
   */
  private static void latency(HtmlPage page, String id, String title, Histogram h, long exactMin, long exactMax,
      String what) {
    if (h.getTotalCount() == 0) {
      return;
    }
    long min = exactMin >= 0 ? exactMin : h.getMinValue();
    long max = exactMax >= min ? exactMax : h.getMaxValue();
    TimeScale x = TimeScale.forSpan(max);
    long width = Math.max(1, (max - min) / LATENCY_BINS + 1);
    int bins = (int) ((max - min) / width) + 1;
    double[] counts = new double[bins];
    for (HistogramIterationValue v : h.recordedValues()) {
      long value = Math.max(min, Math.min(max, v.getValueIteratedTo()));
      counts[(int) ((value - min) / width)] += v.getCountAtValueIteratedTo();
    }
    double[] xs = new double[bins];
    for (int i = 0; i < bins; i++) {
      xs[i] = x.of((double) min + (double) i * width);
    }
    long p50 = Math.max(min, Math.min(max, h.getValueAtPercentile(50)));
    long p99 = Math.max(min, Math.min(max, h.getValueAtPercentile(99)));
    page.markup(new SvgPlot(id, title, "one-way latency (" + x.unit() + ", model)", what + " (count)")
        .bars(String.format("%,d %s, p50 %s, p99 %s", h.getTotalCount(), what, Durations.text(p50),
            Durations.text(p99)), xs, counts, x.of(width))
        .render());
  }

  static SvgTimeline takeoverTimeline(String id, String title, List<TakeoverBreakdown> takeovers) {
    long origin = takeovers.stream().mapToLong(TakeoverBreakdown::lastHeartbeatAt).min().orElse(0);
    long end = takeovers.stream().mapToLong(TakeoverBreakdown::resumedAt).max().orElse(origin);
    TimeScale x = TimeScale.forSpan(end - origin);
    SvgTimeline t = new SvgTimeline(id, title, "model time since the master's last heartbeat (" + x.unit() + ")");
    for (int i = 0; i < takeovers.size(); i++) {
      TakeoverBreakdown b = takeovers.get(i);
      String lane = "take-over " + (i + 1) + " by " + b.host();
      t.span(lane, "detection", x.of(b.lastHeartbeatAt() - origin), x.of(b.suspectedAt() - origin));
      t.span(lane, "port reassignment", x.of(b.suspectedAt() - origin), x.of(b.fencedAt() - origin));
      t.span(lane, "reboot", x.of(b.fencedAt() - origin), x.of(b.resumedAt() - origin));
      if (b.dataPlaneOutageNs() > 0) {
        t.span("data plane " + (i + 1), "data plane down", x.of(b.dataPlaneDownFrom() - origin),
            x.of(b.dataPlaneDownUntil() - origin));
      }
    }
    return t;
  }

  static SvgTimeline failoverTimeline(String id, String title, FailoverBreakdown b) {
    long end = b.faultAt() + b.totalNs();
    for (FailoverBreakdown.PerHost h : b.hosts()) {
      end = Math.max(end, h.sentAt() + h.deliveryNs() + h.updateNs() + h.acknowledgementNs());
    }
    TimeScale x = TimeScale.forSpan(end - b.faultAt());
    SvgTimeline t = new SvgTimeline(id, title, "model time since the fault (" + x.unit() + ")");
    long at = b.faultAt();
    String lane = "fail-over";
    t.instant(lane, "fault", 0);
    t.span(lane, "detection", x.of(at - b.faultAt()), x.of(at + b.detectionNs() - b.faultAt()));
    at += b.detectionNs();
    t.span(lane, "determination", x.of(at - b.faultAt()), x.of(at + b.determinationNs() - b.faultAt()));
    at += b.determinationNs();
    t.span(lane, "notification and processing", x.of(at - b.faultAt()), x.of(at + b.notificationNs() - b.faultAt()));
    for (FailoverBreakdown.PerHost h : b.hosts()) {
      String ch = "CH" + h.ch();
      long from = h.sentAt() - b.faultAt();
      t.span(ch, "delivery", x.of(from), x.of(from + h.deliveryNs()));
      t.span(ch, "route update", x.of(from + h.deliveryNs()), x.of(from + h.deliveryNs() + h.updateNs()));
      t.span(ch, "acknowledgement", x.of(from + h.deliveryNs() + h.updateNs()),
          x.of(from + h.deliveryNs() + h.updateNs() + h.acknowledgementNs()));
    }
    return t;
  }
}
