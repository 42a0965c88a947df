package io.rackfabric.loadtests.scenario.figure;

import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.RunResult.TrafficResult;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code traffic}: per generator what it sent, per sink what arrived (distinct, duplicated, out
 * of order, lost) and the one-way model latency of the writes that arrived, from the sinks' own
 * histograms of arrival minus origin time.
 */
public final class TrafficFigures implements FigureType {

  @Override
  public String name() {
    return "traffic";
  }

  @Override
  public String summary() {
    return "requests sent, refused and not issued per generator; writes delivered, duplicated, reordered, lost and"
        + " their one-way model latency per sink";
  }

  @Override
  public List<Figure> produce(RunResult run) {
    List<Figure> out = new ArrayList<>();
    long sent = 0;
    long delivered = 0;
    for (TrafficResult t : run.traffic()) {
      String p = "traffic." + t.spec().name() + ".";
      String unit = t.spec().writes() ? "writes" : "reads";
      out.add(new Figure(p + "sent", t.sent(), unit, "count"));
      out.add(new Figure(p + "failed", t.failed(), unit, "count"));
      out.add(new Figure(p + "not_issued", t.skipped(), unit, "count"));
      if (t.spec().followRoutes()) {
        out.add(new Figure(p + "rerouted", t.rerouted(), unit, "count"));
      }
    }
    for (String sink : run.sinksOf(run.traffic())) {
      long got = run.delivered(sink);
      if (got < 0) {
        continue; // no statistics: a stopped sink or a killed node's
      }
      String p = "sink." + sink + ".";
      long into = run.sentTo(sink);
      sent += into;
      delivered += got;
      out.add(new Figure(p + "delivered", got, "writes", "count"));
      out.add(new Figure(p + "duplicated", run.duplicates(sink), "writes", "count"));
      out.add(new Figure(p + "reordered", run.reordered(sink), "writes", "count"));
      out.add(new Figure(p + "lost", into - got, "writes", "count"));
      latency(run, sink, p, out);
    }
    out.add(new Figure("writes_sent", sent, "writes", "count"));
    out.add(new Figure("writes_delivered", delivered, "writes", "count"));
    out.add(new Figure("writes_lost", sent - delivered, "writes", "count"));
    return out;
  }

  /** Percentiles from the histogram of this run's writes; exact extremes when the run had the sink alone. */
  private static void latency(RunResult run, String sink, String prefix, List<Figure> out) {
    SinkLatency.of(run, sink).ifPresent(l -> {
      out.add(new Figure(prefix + "latency_min", l.min(), "ns", "model"));
      out.add(new Figure(prefix + "latency_p50", l.percentile(50), "ns", "model"));
      out.add(new Figure(prefix + "latency_p99", l.percentile(99), "ns", "model"));
      out.add(new Figure(prefix + "latency_max", l.max(), "ns", "model"));
    });
  }
}
