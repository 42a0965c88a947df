package io.rackfabric.fabric.management;

import io.rackfabric.fabric.tlp.FabricMessage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fabric manager's distribution of paths (AS-FM section 4, "obtain and distribute to the
 * endpoints a new set of routes for packet delivery"): each time its database settles it computes
 * every reachable endpoint's path table ({@link PathComputation}) and writes, with PI-4 writes into
 * the endpoint's path table ({@link PathTableCapability}), only the entries that differ from what it
 * distributed to that endpoint before, then a header write closing the round; an endpoint whose
 * table did not change gets nothing. A destination keeps its slot at an endpoint for good (a
 * destination no longer reached has its slot cleared, and takes it again when it comes back), so a
 * change rewrites only its own entries. Plain: the driver calls it and puts what it returns on the
 * wire.
 */
final class PathDistributor {

  private final long own;
  private final int trafficClass;
  private final int routesPerDestination;
  /** Per endpoint: destination and rank to slot, in the order the slots were given. */
  private final Map<Long, Map<PathTable.Key, Integer>> slots = new HashMap<>();
  /** Per endpoint: the table last distributed to it. */
  private final Map<Long, PathTable> distributed = new HashMap<>();
  private final List<PathReport.Round> rounds = new ArrayList<>();

  PathDistributor(long own, int trafficClass) {
    this(own, trafficClass, 1);
  }

  /** @param routesPerDestination 1, or 2 for an alternate route per destination ({@link PathComputation}) */
  PathDistributor(long own, int trafficClass, int routesPerDestination) {
    this.own = own;
    this.trafficClass = trafficClass;
    this.routesPerDestination = routesPerDestination;
  }

  /**
   * The database settled at model {@code at} because of {@code trigger}: the writes for what
   * changed, to the fabric ({@code out}) or to the fabric manager's own endpoint ({@code local}).
   */
  void distribute(TopologyDatabase database, String trigger, long at, List<FabricMessage> out, List<Pi4Write> local) {
    int generation = rounds.size() + 1;
    PathComputation.Result result = PathComputation.compute(database, own, routesPerDestination);
    Map<Long, Route> toEndpoints = database.routes(own, -1);
    List<Long> written = new ArrayList<>();
    long writes = 0;
    long localWrites = 0;
    long bytes = 0;
    for (PathTable table : result.tables()) {
      List<Pi4Write> changes = changes(table, toEndpoints.get(table.endpoint()), generation);
      if (changes.isEmpty()) {
        continue;
      }
      written.add(table.endpoint());
      distributed.put(table.endpoint(), table);
      for (Pi4Write w : changes) {
        if (w.route().hops() == 0) {
          local.add(w);
          localWrites++;
        } else {
          out.add(FabricMessage.send(w, w.route().turns(), at));
          writes++;
          bytes += w.sizeBytes();
        }
      }
    }
    rounds.add(new PathReport.Round(generation, trigger, at, result.paths(), written, writes, localWrites, bytes));
  }

  /** The writes that take {@code to}'s table from what it was given last to {@code table}; none when equal. */
  private List<Pi4Write> changes(PathTable table, Route to, int generation) {
    PathTable before = distributed.getOrDefault(table.endpoint(), new PathTable(table.endpoint(), List.of()));
    Map<PathTable.Key, Integer> given = slots.computeIfAbsent(table.endpoint(), e -> new LinkedHashMap<>());
    List<Pi4Write> out = new ArrayList<>();
    for (PathTable.Entry e : table.entries()) {
      if (!before.route(e.key()).equals(java.util.Optional.of(e.route()))) {
        int slot = given.computeIfAbsent(e.key(), d -> given.size());
        out.add(PathTableCapability.entryWrite(to, trafficClass, slot, e));
      }
    }
    for (PathTable.Entry e : before.entries()) {
      if (table.route(e.key()).isEmpty()) {
        out.add(PathTableCapability.clearWrite(to, trafficClass, given.get(e.key())));
      }
    }
    if (!out.isEmpty() || !distributed.containsKey(table.endpoint())) {
      out.add(PathTableCapability.headerWrite(to, trafficClass, given.size(), generation));
    }
    return out;
  }

  /**
   * Endpoint {@code endpoint} was removed from the database: what it was given is forgotten, so if
   * it comes back its table is written whole from slot 0 (a device plugged in holds no table).
   */
  void forget(long endpoint) {
    distributed.remove(endpoint);
    slots.remove(endpoint);
  }

  /** What it distributed, and the tables {@code database} gives now. */
  PathReport report(TopologyDatabase database) {
    PathComputation.Result now = PathComputation.compute(database, own, routesPerDestination);
    return new PathReport(rounds, now.tables(), now.tooLong());
  }
}
