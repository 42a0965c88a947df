package io.rackfabric.fabric.management;

import java.util.ArrayList;
import java.util.List;

/**
 * A source route from the fabric manager's endpoint: the port each device on the way sends the
 * packet out of, the endpoint's own port first (AS routes by the sender's turn pool, AS-FM
 * section 2.1 and Fig. 2). A completion goes back along the same route (its direction bit set).
 * Ours names absolute egress ports where AS turns count relative to the ingress port: the same
 * path, easier to read.
 */
public record Route(List<Integer> turns) {

  public Route {
    turns = List.copyOf(turns);
    for (int t : turns) {
      if (t < 0 || t >= BaselineCapability.MAX_PORTS) {
        throw new IllegalArgumentException("turn=" + t + " not in [0," + (BaselineCapability.MAX_PORTS - 1) + "]");
      }
    }
  }

  /** The empty route: the fabric manager's own device. */
  public static Route local() {
    return new Route(List.of());
  }

  /** This route, then out of port {@code port}. */
  public Route then(int port) {
    List<Integer> longer = new ArrayList<>(turns);
    longer.add(port);
    return new Route(longer);
  }

  /** Devices crossed before the target: the links the packet takes. */
  public int hops() {
    return turns.size();
  }

  @Override
  public String toString() {
    return turns.toString();
  }
}
