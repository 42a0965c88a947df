package io.rackfabric.loadtests.scenario;

import io.rackfabric.cluster.topology.LinkSpec;
import io.rackfabric.cluster.topology.SwitchSpec;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.stats.PortStats;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads the counters of every reachable endpoint and switch port at one moment: what a run's
 * result and each fault's boundary are computed from. A component that does not answer is left
 * out and named in the run's notes, so a dying node costs a figure, not the run.
 */
final class RackSnapshots {

  private final RunContext run;

  RackSnapshots(RunContext run) {
    this.run = run;
  }

  /** Every reachable endpoint's statistics, by endpoint id. */
  Map<String, EndpointStats> endpoints() {
    LiveRack rack = run.rack;
    Map<String, EndpointStats> out = new HashMap<>();
    for (var e : rack.topology().endpoints()) {
      if (!rack.reachable(e.id())) {
        continue;
      }
      try {
        out.put(e.id(), rack.endpointStats(e.id()));
      } catch (Exception ex) {
        run.notes.add("no statistics from " + e.id() + ": " + ex.getMessage());
      }
    }
    return out;
  }

  /** Every reachable switch port's statistics, by link end. */
  Map<String, PortStats> ports() {
    LiveRack rack = run.rack;
    Map<String, PortStats> out = new HashMap<>();
    for (SwitchSpec s : rack.topology().switches()) {
      if (!rack.reachable(s.id())) {
        continue;
      }
      for (var p : s.ports()) {
        String end = LinkSpec.end(s.id(), p.name());
        try {
          out.put(end, rack.portStats(end));
        } catch (Exception ex) {
          run.notes.add("no statistics from " + end + ": " + ex.getMessage());
        }
      }
    }
    return out;
  }

  /** Each link end's partner end. */
  Map<String, String> partners() {
    Map<String, String> out = new HashMap<>();
    run.rack.topology().links().forEach(l -> {
      out.put(l.a(), l.b());
      out.put(l.b(), l.a());
    });
    return out;
  }
}
