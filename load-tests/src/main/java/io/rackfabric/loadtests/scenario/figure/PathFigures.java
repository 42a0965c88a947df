package io.rackfabric.loadtests.scenario.figure;

import io.rackfabric.fabric.management.FabricManagerReport;
import io.rackfabric.fabric.management.PathReport;
import io.rackfabric.fabric.management.PathTableHeld;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.api.RunResult;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The fabric manager's distribution of paths (part of {@code fabric-manager}): for each round, the
 * paths it computed, the PI-4 writes and bytes it sent, the endpoints written, and the model time
 * from the round's start (the end of the discovery, or of a rediscovery) to the last written
 * endpoint holding its table whole (its header write of that round arriving, as the endpoint
 * recorded it). The first round is {@code fm.paths.distribution.*}, a round after a rediscovery
 * {@code fm.paths.redistribution.N.*} (N the rediscovery's index), after a take-over
 * {@code fm.paths.takeover.*}.
 */
final class PathFigures {

  private PathFigures() {}

  static void paths(RunResult run, FabricManagerReport r, List<Figure> out) {
    if (r.paths() == null) {
      return;
    }
    Map<Long, PathTableHeld> held = new HashMap<>();
    for (EndpointStats e : run.endpointsAtEnd().values()) {
      if (e.pathTable() != null) {
        held.put(e.pathTable().table().endpoint(), e.pathTable());
      }
    }
    out.add(new Figure("fm.paths.computed_at_end", r.paths().computed().stream().mapToLong(t -> t.entries().size())
        .sum(), "paths", "count"));
    out.add(new Figure("fm.paths.too_long", r.paths().tooLong(), "paths", "count"));
    out.add(new Figure("fm.paths.malformed_writes", held.values().stream().mapToLong(PathTableHeld::malformedWrites)
        .sum(), "packets", "count"));
    for (PathReport.Round round : r.paths().rounds()) {
      String p = "fm.paths." + prefix(round.trigger()) + ".";
      out.add(new Figure(p + "computed", round.paths(), "paths", "count"));
      out.add(new Figure(p + "endpoints_written", round.endpointsWritten().size(), "endpoints", "count"));
      out.add(new Figure(p + "writes", round.writes(), "packets", "count"));
      out.add(new Figure(p + "local_writes", round.localWrites(), "writes", "count"));
      out.add(new Figure(p + "bytes", round.bytes(), "bytes", "count"));
      out.add(new Figure(p + "at_ns", round.at(), "ns", "model"));
      out.add(new Figure(p + "held_ns", heldNs(round, held), "ns", "model"));
    }
  }

  /** From the round's start to the last endpoint it wrote holding its table whole; -1 when one never did, 0 when none was written. */
  static long heldNs(PathReport.Round round, Map<Long, PathTableHeld> held) {
    long last = round.at();
    for (long endpoint : round.endpointsWritten()) {
      PathTableHeld h = held.get(endpoint);
      long at = h == null ? -1 : h.heldAt(round.generation(), round.at());
      if (at < 0) {
        return -1;
      }
      last = Math.max(last, at);
    }
    return last - round.at();
  }

  private static String prefix(String trigger) {
    if (trigger.startsWith("rediscovery ")) {
      return "redistribution." + trigger.substring("rediscovery ".length());
    }
    return trigger.equals("discovery") ? "distribution" : trigger;
  }
}
