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
 *
 * <p>With two routes per destination, each destination also gets an alternate (rank 1): the
 * shortest route, by the same rule, that does not cross the chosen route's second device (the
 * first switch past the endpoint's own neighbor). In a dual-star rack such as Ladon's, where a
 * host's neighbor is its two root ports and the second device is its plane's switch, that is the
 * route through the other plane. A destination with no such route (the chosen route crosses one
 * switch, or the second device is the only way) gets none.
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
    return compute(database, fabricManager, 1);
  }

  /** As above, with {@code routesPerDestination} (1 or 2) routes per destination. */
  public static Result compute(TopologyDatabase database, long fabricManager, int routesPerDestination) {
    if (routesPerDestination < 1 || routesPerDestination > PathTableCapability.MAX_RANKS) {
      throw new IllegalArgumentException("routesPerDestination=" + routesPerDestination + " not in [1,"
          + PathTableCapability.MAX_RANKS + "]");
    }
    List<PathTable> tables = new ArrayList<>();
    long tooLong = 0;
    for (long endpoint : database.routes(fabricManager, -1).keySet()) {
      if (!isEndpoint(database, endpoint)) {
        continue;
      }
      List<PathTable.Entry> entries = new ArrayList<>();
      Map<Long, Route> routes = database.routes(endpoint, -1);
      for (Map.Entry<Long, Route> r : routes.entrySet()) {
        if (r.getKey() == endpoint || !isEndpoint(database, r.getKey())) {
          continue;
        }
        if (r.getValue().hops() > PathTableCapability.MAX_TURNS) {
          tooLong++;
          continue;
        }
        entries.add(new PathTable.Entry(r.getKey(), r.getValue()));
        if (routesPerDestination > 1) {
          Route alternate = alternate(database, endpoint, routes, r.getKey(), r.getValue());
          if (alternate != null && alternate.hops() <= PathTableCapability.MAX_TURNS) {
            entries.add(new PathTable.Entry(r.getKey(), alternate, 1));
          } else if (alternate != null) {
            tooLong++;
          }
        }
      }
      tables.add(new PathTable(endpoint, entries));
    }
    return new Result(tables, tooLong);
  }

  /**
   * The shortest route from {@code endpoint} to {@code destination} that avoids the second device
   * of {@code chosen}; null when {@code chosen} crosses fewer than two devices or none avoids it.
   * Routes from one device are prefix-closed (breadth first), so the second device is the one
   * reached by the first two turns.
   */
  private static Route alternate(TopologyDatabase database, long endpoint, Map<Long, Route> routes, long destination,
      Route chosen) {
    if (chosen.hops() < 3) {
      return null;
    }
    Route prefix = new Route(chosen.turns().subList(0, 2));
    long second = routes.entrySet().stream().filter(e -> e.getValue().equals(prefix)).mapToLong(Map.Entry::getKey)
        .findFirst().orElse(-1);
    return second == -1 ? null : database.routes(endpoint, second).get(destination);
  }

  private static boolean isEndpoint(TopologyDatabase database, long serial) {
    return database.device(serial).map(d -> d.type() == DeviceType.ENDPOINT).orElse(false);
  }
}
