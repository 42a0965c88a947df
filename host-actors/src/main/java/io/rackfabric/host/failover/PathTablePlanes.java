package io.rackfabric.host.failover;

import io.rackfabric.fabric.management.PathTable;
import io.rackfabric.fabric.management.Route;
import io.rackfabric.host.memory.Plane;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How a Ladon compute host reads the plane of each target from the path table the fabric manager
 * distributed to its root endpoint (docs/fabric-manager.md, "Several routes and the Ladon route
 * list"): a route from the host leaves its root endpoint's one port (the first turn) and then one
 * of its two root ports (the second turn), the primary or the secondary plane. Only the route the
 * fabric manager chose (rank 0) counts for the route list; the alternate (rank 1) is where the host
 * goes by itself when its own root port on the chosen plane fails. A destination that is no
 * target of the route list (the NIC, the BMH) or a route that leaves by a port that is no root
 * port is left out.
 *
 * @param targets the route list's target of each endpoint's serial number: the MH 0, CH i i
 * @param rootPorts the plane behind each port number of the host's root-port switch
 */
public record PathTablePlanes(Map<Long, Integer> targets, Map<Integer, Plane> rootPorts) {

  public PathTablePlanes {
    targets = Map.copyOf(targets);
    rootPorts = Map.copyOf(rootPorts);
    if (rootPorts.values().stream().distinct().count() < 2) {
      throw new IllegalArgumentException("rootPorts=" + rootPorts + " does not name both planes");
    }
  }

  /** The plane {@code table} names for each target it has a chosen route to, by target. */
  public Map<Integer, Plane> planes(PathTable table) {
    return planesOf(table.chosen());
  }

  /**
   * The plane of each target's alternate route (rank 1) in {@code table}, by target: where the
   * host can go at once when the plane of its chosen route fails under it.
   */
  public Map<Integer, Plane> alternates(PathTable table) {
    return planesOf(table.entries().stream().filter(e -> e.rank() == 1).toList());
  }

  private Map<Integer, Plane> planesOf(List<PathTable.Entry> entries) {
    Map<Integer, Plane> out = new TreeMap<>();
    for (PathTable.Entry e : entries) {
      Integer target = targets.get(e.destination());
      Route r = e.route();
      Plane plane = r.hops() < 2 ? null : rootPorts.get(r.turns().get(1));
      if (target != null && plane != null) {
        out.put(target, plane);
      }
    }
    return out;
  }
}
