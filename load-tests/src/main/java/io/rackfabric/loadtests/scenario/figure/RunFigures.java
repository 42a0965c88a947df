package io.rackfabric.loadtests.scenario.figure;

import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.time.TimeKeeper;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code run}: how long the rack took to start and the run took (wall), how far model time got
 * (the latest endpoint clock), the rate writes arrived at while traffic ran (wall), and what the
 * model-time synchronization cost (counts).
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
    synchronization(run, out);
    return out;
  }

  /**
   * The model-time kernel's own cost: rounds, its messages per TLP received, and stragglers
   * (events that reached a component after it had handled a later one: inputs from outside the
   * synchronization, such as host software that still runs on wall-clock timers).
   */
  private static void synchronization(RunResult run, List<Figure> out) {
    if (run.rack() == null) {
      return;
    }
    Optional<TimeKeeper.Status> status;
    try {
      status = run.rack().timeStatus();
    } catch (Exception e) {
      return; // the keeper's JVM is gone: no account to give
    }
    status.ifPresent(s -> {
      long tlps = run.endpointsAtEnd().values().stream().mapToLong(e -> e.link().tlpsReceived()).sum();
      // Rounds and messages are the kernel's work on this run, not model figures: a fault or a
      // host's write applied from outside the kernel can split a round in two.
      out.add(new Figure("sync.rounds", s.rounds(), "rounds", "wall"));
      out.add(new Figure("sync.messages_per_tlp", tlps == 0 ? 0 : (double) s.syncMessages() / tlps, "messages",
          "wall"));
      out.add(new Figure("sync.stragglers", s.stragglers(), "events", "count"));
    });
  }
}
