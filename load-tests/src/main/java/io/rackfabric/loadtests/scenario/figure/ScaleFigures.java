package io.rackfabric.loadtests.scenario.figure;

import io.rackfabric.fabric.stats.PortStats;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scale.ComponentCensus;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * {@code scale}: the start-up wall time (launch to every link trained and the control plane
 * booted), the emulated components by type, the heap they hold per component (used heap after a
 * GC at rack-up minus the same with the actor system up and nothing spawned; in a multi-JVM rack
 * each node JVM measures its own and the sum is divided by every component),
 * and the TLPs the switch ports forwarded per wall second of traffic (their counters, end minus
 * start). Opt-in: name it in the scenario's {@code figures}.
 */
public final class ScaleFigures implements FigureType {

  @Override
  public String name() {
    return "scale";
  }

  @Override
  public String summary() {
    return "start-up wall time, components by type, heap per component (each node JVM measures its own), TLPs forwarded per wall second";
  }

  @Override
  public List<Figure> produce(RunResult run) {
    List<Figure> out = new ArrayList<>();
    out.add(new Figure("scale.startup_wall", run.rackUpNanos() / 1e9, "s", "wall"));
    var topology = run.scenario().topology().topology();
    Map<String, Long> census = ComponentCensus.of(topology);
    census.forEach((type, n) -> out.add(new Figure("scale.components." + type, n, "actors", "count")));
    long total = ComponentCensus.total(topology);
    out.add(new Figure("scale.components", total, "actors", "count"));
    out.add(new Figure("scale.compute_hosts", ComponentCensus.computeHosts(topology), "hosts", "count"));
    if (run.rack() != null) {
      OptionalLong growth = run.rack().heapGrowth();
      if (growth.isPresent() && total > 0) {
        // Measured on this machine's JVMs (collector, timing of the GC): not the model's outcome,
        // so on the wall clock's side, with the figures two runs need not share.
        out.add(new Figure("scale.heap_per_component", (double) growth.getAsLong() / total, "bytes", "wall"));
        out.add(new Figure("scale.heap_rack", growth.getAsLong() / (double) (1 << 20), "MiB", "wall"));
      }
    }
    long forwarded = 0;
    for (Map.Entry<String, PortStats> e : run.portsAtEnd().entrySet()) {
      PortStats start = run.portsAtStart().get(e.getKey());
      forwarded += e.getValue().tlpsSent() - (start == null ? 0 : start.tlpsSent());
    }
    out.add(new Figure("scale.tlps_forwarded", forwarded, "TLPs", "count"));
    double seconds = Math.max(1e-9, run.trafficNanos() / 1e9);
    out.add(new Figure("scale.tlps_per_s", forwarded / seconds, "TLPs/s", "wall"));
    return out;
  }
}
