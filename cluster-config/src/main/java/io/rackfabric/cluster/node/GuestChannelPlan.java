package io.rackfabric.cluster.node;

import io.rackfabric.cluster.topology.ControlPlaneSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.endpoint.GuestPeer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The guest channels of a rack's endpoints ({@link GuestPeer}), declared from its topology: host
 * software on two endpoints that talks directly, not through the fabric, does it on a channel the
 * model-time kernel knows, so that neither side runs past a message still to come. Every channel
 * is declared at both ends with the same lookahead.
 *
 * <ul>
 *   <li>The management-host pair (Ladon section 4.3): the master's and the backup's endpoints, with
 *       the MMH-BMH link's latency (heartbeats, replication, hand-over).
 * </ul>
 */
public final class GuestChannelPlan {

  private final Map<String, List<GuestPeer>> peers = new HashMap<>();

  private GuestChannelPlan() {}

  /**
   * @param pairLinkLatencyNs the MMH-BMH link's one-way latency, model ns (at least 1 ns is used:
   *     a channel's lookahead must be positive)
   */
  public static GuestChannelPlan of(Topology topology, long pairLinkLatencyNs) {
    GuestChannelPlan plan = new GuestChannelPlan();
    ControlPlaneSpec pair = topology.controlPlane();
    if (pair != null && topology.endpoint(pair.master()).isPresent() && topology.endpoint(pair.backup()).isPresent()) {
      plan.both(pair.master(), pair.backup(), Math.max(1, pairLinkLatencyNs));
    }
    return plan;
  }

  /** The channels of {@code endpoint}, in no particular order (the endpoint sorts them). */
  public List<GuestPeer> of(String endpoint) {
    return List.copyOf(peers.getOrDefault(endpoint, List.of()));
  }

  private void both(String a, String b, long lookaheadNs) {
    add(a, new GuestPeer(b, lookaheadNs));
    add(b, new GuestPeer(a, lookaheadNs));
  }

  private void add(String endpoint, GuestPeer peer) {
    List<GuestPeer> list = peers.computeIfAbsent(endpoint, e -> new ArrayList<>());
    if (list.stream().noneMatch(p -> p.peer().equals(peer.peer()))) {
      list.add(peer);
    }
  }
}
