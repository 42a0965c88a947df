package io.rackfabric.loadtests.scenario.figure;

import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.stats.Latencies;
import io.rackfabric.loadtests.scenario.api.RunResult;
import java.util.Optional;
import org.HdrHistogram.Histogram;

/**
 * The one-way model latency (arrival minus origin) of the writes a sink received during a run,
 * from its own histogram, end minus start. The extremes are exact when the run had the sink
 * alone (nothing arrived before traffic); otherwise the histogram's, to its 2 digits.
 */
record SinkLatency(long min, long max, Histogram histogram) {

  /** The sink's latencies over the run; empty without statistics or when no write arrived. */
  static Optional<SinkLatency> of(RunResult run, String sink) {
    EndpointStats start = run.endpointsAtStart().get(sink);
    EndpointStats end = run.endpointsAtEnd().get(sink);
    if (start == null || end == null || end.writesReceived() == start.writesReceived()) {
      return Optional.empty();
    }
    Histogram h = Latencies.decode(end.latencyHistogram());
    if (start.writesReceived() > 0) {
      h.subtract(Latencies.decode(start.latencyHistogram()));
    }
    boolean exact = start.writesReceived() == 0;
    return Optional.of(new SinkLatency(exact ? end.minLatencyNs() : h.getMinValue(),
        exact ? end.maxLatencyNs() : h.getMaxValue(), h));
  }

  /** A percentile, kept within the extremes (the histogram holds 2 digits). */
  long percentile(double p) {
    return Math.max(min, Math.min(max, histogram.getValueAtPercentile(p)));
  }
}
