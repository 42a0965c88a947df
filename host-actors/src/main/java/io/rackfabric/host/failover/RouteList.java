package io.rackfabric.host.failover;

import io.rackfabric.host.memory.Plane;
import java.util.Arrays;
import java.util.List;

/**
 * A host's list of which plane it uses to reach each other host (Ladon section 4.2): a CH's view of
 * the MH (target 0) and of every other CH, or the MH's DMA targets. Only one of a target's two
 * ranges is active at a time; a fail-over moves it to the other.
 */
public final class RouteList {

  private final Plane[] planes;

  /** Every target 0..computeHosts on the primary plane. */
  public RouteList(int computeHosts) {
    planes = new Plane[computeHosts + 1];
    Arrays.fill(planes, Plane.PRIMARY);
  }

  public Plane plane(int target) {
    return planes[target];
  }

  /** Moves {@code target} to {@code plane}; true when that changed anything. */
  public boolean use(int target, Plane plane) {
    if (planes[target] == plane) {
      return false;
    }
    planes[target] = plane;
    return true;
  }

  /** Moves every target to {@code plane} (a host whose own link on the other plane failed). */
  public void useEverywhere(Plane plane) {
    Arrays.fill(planes, plane);
  }

  /** The planes by target, 0 (the MH) first. */
  public List<Plane> snapshot() {
    return List.of(planes);
  }
}
