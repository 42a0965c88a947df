package io.rackfabric.loadtests.scenario.invariant;

import io.rackfabric.fabric.management.Candidacy;
import io.rackfabric.fabric.management.FabricManagerReport;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.Verdict;
import io.rackfabric.loadtests.scenario.language.InvariantSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code fm-took-over}: the fabric manager failed over (AS-FM section 4): the election's secondary
 * stopped hearing the primary's heartbeats, took over, and its own discovery of the fabric finished
 * with every read answered with data and no problem (differences from the file are expected: the
 * old primary is gone).
 */
public final class FmTookOver implements InvariantType {

  @Override
  public String name() {
    return "fm-took-over";
  }

  @Override
  public String summary() {
    return "the secondary fabric manager took over from a primary that died and finished its own discovery (or its"
        + " re-reads of the database it kept)";
  }

  @Override
  public Verdict evaluate(InvariantSpec invariant, RunResult run) {
    Map<String, FabricManagerReport> candidates = new TreeMap<>();
    for (Map.Entry<String, EndpointStats> e : run.endpointsAtEnd().entrySet()) {
      FabricManagerReport r = e.getValue().fabricManager();
      if (r != null && r.election() != null) {
        candidates.put(e.getKey(), r);
      }
    }
    // every take-over must have served: a second one (of a secondary appointed after the first) too
    boolean served = true;
    List<String> said = new ArrayList<>();
    for (Map.Entry<String, FabricManagerReport> c : candidates.entrySet()) {
      FabricManagerReport r = c.getValue();
      Candidacy.Watch w = r.election().watch();
      if (w.tookOverAt() < 0) {
        continue;
      }
      served &= r.discoveredAt() >= 0 && r.completions() == r.readRequests() && r.errorCompletions() == 0
          && r.problems().isEmpty();
      boolean kept = r.copy() != null && r.copy().resumed();
      said.add(String.format("%s took over at %d ns (last heartbeat arrived at %d ns); its "
          + (kept ? "re-reads of the database it kept" : "discovery") + " %s: %d read requests, %d completions with data, %d with error, %d problems, %d devices, %d links",
          c.getKey(), w.tookOverAt(), w.lastHeartbeatAt(), r.discoveredAt() < 0 ? "did not finish" : "finished at "
          + r.discoveredAt() + " ns", r.readRequests(), r.completions(), r.errorCompletions(), r.problems().size(),
          r.devices(), r.links()));
    }
    if (!said.isEmpty()) {
      return new Verdict(served, String.join("; ", said));
    }
    return Verdict.fail("no candidate took over (candidates: " + candidates.keySet() + ")");
  }
}
