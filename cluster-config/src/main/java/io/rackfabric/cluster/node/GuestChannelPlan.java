package io.rackfabric.cluster.node;

import io.rackfabric.cluster.topology.ControlPlaneSpec;
import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.GlobalMemorySpec;
import io.rackfabric.cluster.topology.LeastLatency;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.endpoint.GuestPeer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The guest channels of a rack's endpoints ({@link GuestPeer}), declared from its topology: host
 * software on two endpoints that talks directly, not through the fabric, does it on a channel the
 * model-time kernel knows, so that neither side runs past a message still to come. Every channel
 * is declared at both ends with the same lookahead.
 *
 * <ul>
 *   <li>The management-host pair (Ladon section 4.3): the master's and the backup's endpoints, with
 *       the MMH-BMH link's latency (heartbeats, replication, hand-over).
 *   <li>The rack's NIC ({@link NicNode#nicOf}): the management host's root endpoint, where the
 *       NIC's fault-tolerance daemon runs, and the NIC's endpoint (the card's commands and the
 *       magic word), and the management host and each compute host, whose sender owns a VF
 *       (FAULT_DETECTED and the port's reopening). Their lookahead is the fabric's least latency
 *       between the two ({@link LeastLatency}): the daemon's messages stand for the PF driver's
 *       and the VF drivers' accesses across it. Two endpoints no chain of links joins get none.
 *   <li>Each compute host and each management host of the pair: the host's control-plane driver
 *       sends its requests to the master there and gets the answers back, with the fabric's least
 *       latency between the two as for the NIC.
 * </ul>
 */
public final class GuestChannelPlan {

  private final Map<String, List<GuestPeer>> peers = new HashMap<>();

  private GuestChannelPlan() {}

  /**
   * @param pairLinkLatencyNs the MMH-BMH link's one-way latency, model ns (at least 1 ns is used:
   *     a channel's lookahead must be positive)
   * @param switchLatencyNs the least time a switch chip's crossing takes, model ns (fabric-actors
   *     {@code FabricSettings.leastCrossingNs}): part of the fabric's least latency between two
   *     endpoints
   */
  public static GuestChannelPlan of(Topology topology, long pairLinkLatencyNs, long switchLatencyNs) {
    GuestChannelPlan plan = new GuestChannelPlan();
    ControlPlaneSpec pair = topology.controlPlane();
    if (pair != null && topology.endpoint(pair.master()).isPresent() && topology.endpoint(pair.backup()).isPresent()) {
      plan.both(pair.master(), pair.backup(), Math.max(1, pairLinkLatencyNs));
    }
    GlobalMemorySpec memory = topology.globalMemorySpec();
    if (pair != null && memory != null) {
      for (String ch : memory.computeHosts()) {
        for (String host : List.of(pair.master(), pair.backup())) {
          if (!ch.equals(host) && topology.endpoint(ch).isPresent() && topology.endpoint(host).isPresent()) {
            plan.acrossFabric(topology, ch, host, switchLatencyNs);
          }
        }
      }
    }
    Optional<EndpointSpec> nic = NicNode.nicOf(topology);
    if (nic.isPresent() && topology.endpoint(memory.managementHost()).isPresent()) {
      String mh = memory.managementHost();
      plan.acrossFabric(topology, mh, nic.get().id(), switchLatencyNs);
      for (String ch : memory.computeHosts()) {
        if (!ch.equals(mh) && topology.endpoint(ch).isPresent()) {
          plan.acrossFabric(topology, mh, ch, switchLatencyNs);
        }
      }
    }
    return plan;
  }

  /** The channels of {@code endpoint}, in no particular order (the endpoint sorts them). */
  public List<GuestPeer> of(String endpoint) {
    return List.copyOf(peers.getOrDefault(endpoint, List.of()));
  }

  /** A channel each way with the fabric's least latency between {@code a} and {@code b}, if any joins them. */
  private void acrossFabric(Topology topology, String a, String b, long switchLatencyNs) {
    OptionalLong least = LeastLatency.between(topology, a, b, switchLatencyNs);
    if (least.isPresent()) {
      both(a, b, Math.max(1, least.getAsLong()));
    }
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
