package io.rackfabric.loadtests.scenario.invariant;

import io.rackfabric.cluster.scenario.Durations;
import io.rackfabric.cluster.scenario.InvariantSpec;
import io.rackfabric.cluster.scenario.Param;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.loadtests.scenario.InvariantType;
import io.rackfabric.loadtests.scenario.RunResult;
import io.rackfabric.loadtests.scenario.RunResult.Boundary;
import io.rackfabric.loadtests.scenario.RunResult.TrafficResult;
import io.rackfabric.loadtests.scenario.Verdict;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code no-loss-before-fault}: every write stamped before the first model-time fault arrived, as
 * the rack stood just before that fault was applied (without one: by the end of the run).
 */
public final class NoLossBeforeFault implements InvariantType {

  @Override
  public String name() {
    return "no-loss-before-fault";
  }

  @Override
  public String summary() {
    return "every write the covered generators sent before the first model-time fault arrived before it was applied";
  }

  @Override
  public List<Param> params() {
    return List.of(TrafficParam.TRAFFIC);
  }

  @Override
  public Verdict evaluate(InvariantSpec invariant, RunResult run) {
    List<TrafficResult> selected = run.selected(invariant.params().names("traffic"));
    List<String> sinks = run.sinksOf(selected);
    if (sinks.isEmpty()) {
      return Verdict.pass("no write traffic to check");
    }
    if (run.boundaries().isEmpty()) {
      List<String> lines = new ArrayList<>();
      boolean ok = true;
      for (String sink : sinks) {
        long sent = run.sentTo(sink);
        long delivered = run.delivered(sink);
        ok &= delivered == sent;
        lines.add(sink + ": " + delivered + " of " + sent + " delivered by the end (no model-time fault)");
      }
      return new Verdict(ok, String.join("; ", lines));
    }
    Boundary b = run.boundaries().get(0);
    List<String> lines = new ArrayList<>();
    boolean ok = true;
    for (String sink : sinks) {
      long sent = run.traffic().stream().filter(t -> t.spec().writes() && t.spec().sink().equals(sink))
          .mapToLong(t -> b.sentByTraffic().getOrDefault(t.spec().name(), 0L)).sum();
      EndpointStats then = b.endpoints().get(sink);
      EndpointStats start = run.endpointsAtStart().get(sink);
      if (then == null || start == null) {
        ok = false;
        lines.add(sink + ": no statistics before the fault");
        continue;
      }
      long delivered = then.uniqueWrites() - start.uniqueWrites();
      ok &= delivered == sent;
      lines.add(sink + ": " + delivered + " of " + sent + " sent before " + Durations.text(b.modelAt()) + " delivered");
    }
    return new Verdict(ok, String.join("; ", lines));
  }
}
