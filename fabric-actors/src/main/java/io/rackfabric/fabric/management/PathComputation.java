package io.rackfabric.fabric.management;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The paths the fabric manager computes from its topology database (never from the topology
 * file): for every endpoint it reaches, the route to every other endpoint that endpoint reaches,
 * over links whose two ports carry management as the database last read them, by the database's
 * one router ({@link TopologyDatabase#routes}: shortest, lowest turns first). So a path never
 * crosses a link the database knows to be down, and a link going down changes only the paths that
 * crossed it. A route longer than a path-table entry holds ({@link PathTableCapability#MAX_TURNS})
 * is left out of the table and counted.
 */
public final class PathComputation {

  /** The tables, and the routes left out for being too long. */
  public record Result(List<PathTable> tables, long tooLong) {

    public Result {
      tables = List.copyOf(tables);
    }

    /** Paths in all the tables. */
    public long paths() {
      return tables.stream().mapToLong(t -> t.entries().size()).sum();
    }
  }

  private PathComputation() {}

  /**
   * The path table of every endpoint the fabric manager on device {@code fabricManager} reaches in
   * {@code database}, in the order it reaches them.
   */
  public static Result compute(TopologyDatabase database, long fabricManager) {
    List<PathTable> tables = new ArrayList<>();
    long tooLong = 0;
    for (long endpoint : database.routes(fabricManager, -1).keySet()) {
      if (!isEndpoint(database, endpoint)) {
        continue;
      }
      List<PathTable.Entry> entries = new ArrayList<>();
      for (Map.Entry<Long, Route> r : database.routes(endpoint, -1).entrySet()) {
        if (r.getKey() == endpoint || !isEndpoint(database, r.getKey())) {
          continue;
        }
        if (r.getValue().hops() > PathTableCapability.MAX_TURNS) {
          tooLong++;
          continue;
        }
        entries.add(new PathTable.Entry(r.getKey(), r.getValue()));
      }
      tables.add(new PathTable(endpoint, entries));
    }
    return new Result(tables, tooLong);
  }

  private static boolean isEndpoint(TopologyDatabase database, long serial) {
    return database.device(serial).map(d -> d.type() == DeviceType.ENDPOINT).orElse(false);
  }
}
