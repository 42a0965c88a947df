package io.rackfabric.loadtests.scenario.figure;

import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.FigureType;
import io.rackfabric.loadtests.scenario.RunResult;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code run}: how long the rack took to start and the run took (wall), how far model time got
 * (the latest endpoint clock), and the rate writes arrived at while traffic ran (wall).
 */
public final class RunFigures implements FigureType {

  @Override
  public String name() {
    return "run";
  }

  @Override
  public String summary() {
    return "rack start-up, traffic and run wall time, model time reached, writes delivered per wall second of traffic";
  }

  @Override
  public List<Figure> produce(RunResult run) {
    List<Figure> out = new ArrayList<>();
    out.add(new Figure("rack_start", run.rackUpNanos() / 1e9, "s", "wall"));
    out.add(new Figure("traffic_time", run.trafficNanos() / 1e9, "s", "wall"));
    out.add(new Figure("run_time", run.wallNanos() / 1e9, "s", "wall"));
    long modelEnd = run.endpointsAtEnd().values().stream().mapToLong(s -> s.link().modelNow()).max().orElse(0);
    out.add(new Figure("model_time_reached", modelEnd, "ns", "model"));
    long delivered = 0;
    for (String sink : run.sinksOf(run.traffic())) {
      delivered += Math.max(0, run.delivered(sink));
    }
    double seconds = Math.max(1e-9, run.trafficNanos() / 1e9);
    out.add(new Figure("write_rate", delivered / seconds, "writes/s", "wall"));
    long received = run.endpointsAtEnd().values().stream().mapToLong(EndpointStats::writesReceived).sum();
    out.add(new Figure("writes_received_by_endpoints", received, "writes", "count"));
    return out;
  }
}
