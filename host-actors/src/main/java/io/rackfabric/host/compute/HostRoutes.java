package io.rackfabric.host.compute;

import io.rackfabric.host.failover.ControlWord;
import io.rackfabric.host.failover.RouteList;
import io.rackfabric.host.memory.Plane;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A compute host's route list as the MH's route-change notifications and the fabric manager's path
 * tables set it ({@link ComputeHost}), without the actor: which targets move to which plane, and
 * which notifications were applied already (the MH repeats one, with a new sequence number, when
 * an ACK is late). Not thread-safe: one owner.
 */
final class HostRoutes {

  /** From now on the host reaches {@code target} through {@code plane}. */
  record Change(int target, Plane plane) {}

  /** The news of a route change: {@code host} (0: every host) lost its {@code plane}. */
  private record News(int host, Plane plane) {}

  private final int index;
  private final int computeHosts;
  private final RouteList routes;
  private final Set<News> applied = new HashSet<>();

  /** @param index this CH's number, 1..computeHosts */
  HostRoutes(int index, int computeHosts) {
    this.index = index;
    this.computeHosts = computeHosts;
    this.routes = new RouteList(computeHosts);
  }

  /**
   * The MH's notification that {@code failed} (this host, another, or {@link
   * ControlWord#EVERY_HOST}) lost {@code lost}; null when it was applied already (a repeat, which
   * changes nothing), else the targets that move to the other plane, in target order: every
   * target when the failed host is this one or every host (every path through the failed port or
   * switch is gone), else the failed host if it was not there yet.
   */
  List<Change> notified(int failed, Plane lost) {
    if (!applied.add(new News(failed, lost))) {
      return null;
    }
    Plane healthy = lost.other();
    List<Change> changes = new ArrayList<>();
    if (failed == index || failed == ControlWord.EVERY_HOST) {
      routes.useEverywhere(healthy);
      for (int t = 0; t <= computeHosts; t++) {
        changes.add(new Change(t, healthy));
      }
    } else if (routes.use(failed, healthy)) {
      changes.add(new Change(failed, healthy));
    }
    return changes;
  }

  /** The fabric manager's chosen plane of each target: the targets that moved, in {@code planes}' order. */
  List<Change> pathTable(Map<Integer, Plane> planes) {
    List<Change> changes = new ArrayList<>();
    planes.forEach((target, plane) -> {
      if (routes.use(target, plane)) {
        changes.add(new Change(target, plane));
      }
    });
    return changes;
  }

  /**
   * This host's own root port on {@code failed} went down: every target it reaches through
   * {@code failed} that has an alternate route on the other plane ({@code alternates}, from the
   * fabric manager's table) moves there at once, without waiting for the MH's notification. The
   * targets that moved, in {@code alternates}' order (target order, from {@link
   * io.rackfabric.host.failover.PathTablePlanes#alternates}); a target with no alternate stays until the notification
   * or the next table.
   */
  List<Change> ownPlaneFailed(Plane failed, Map<Integer, Plane> alternates) {
    List<Change> changes = new ArrayList<>();
    Plane healthy = failed.other();
    alternates.forEach((target, plane) -> {
      if (plane == healthy && routes.plane(target) == failed && routes.use(target, healthy)) {
        changes.add(new Change(target, healthy));
      }
    });
    return changes;
  }

  /**
   * The plane to the MH: a host whose own root port on a plane failed ({@code failedPlane}, null
   * when none) cannot send through it, whatever its list says.
   */
  Plane toMh(Plane failedPlane) {
    return failedPlane != null ? failedPlane.other() : routes.plane(0);
  }

  /** The planes by target, 0 (the MH) first. */
  List<Plane> snapshot() {
    return routes.snapshot();
  }
}
