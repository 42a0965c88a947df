package io.rackfabric.cluster.topology;

import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.PriorityQueue;

/**
 * The least model time the fabric of a topology could take between two components: over the
 * cheapest chain of links, each link's least flight (a DLLP's, {@link
 * io.rackfabric.fabric.link.LinkParameters#leastFlightNs}) plus the least chip crossing for every
 * switch crossed (the smaller of {@code switch-latency} and {@code ntb-latency}). These are the
 * lookaheads the model-time kernel gives a link and the ports of one chip, so the sum is a lower bound on anything the fabric carries between the two, whatever the
 * routing; a guest channel between two endpoints' host software uses it as its lookahead.
 */
public final class LeastLatency {

  private LeastLatency() {}

  /**
   * @param switchLatencyNs the least time a switch chip's crossing takes, model ns (fabric-actors
   *     {@code FabricSettings.leastCrossingNs})
   * @return the least latency from {@code from} to {@code to}, model ns; empty when no chain of
   *     links joins them
   */
  public static OptionalLong between(Topology topology, String from, String to, long switchLatencyNs) {
    if (switchLatencyNs < 0) {
      throw new IllegalArgumentException("switchLatencyNs=" + switchLatencyNs + " is negative");
    }
    for (String id : new String[] {from, to}) {
      if (topology.component(id).isEmpty()) {
        throw new IllegalArgumentException("component '" + id + "' is not in topology " + topology.name());
      }
    }
    Map<String, Long> best = new HashMap<>();
    PriorityQueue<Map.Entry<String, Long>> open = new PriorityQueue<>(Map.Entry.comparingByValue());
    best.put(from, 0L);
    open.add(Map.entry(from, 0L));
    while (!open.isEmpty()) {
      Map.Entry<String, Long> e = open.poll();
      String at = e.getKey();
      long d = e.getValue();
      if (d > best.get(at)) {
        continue; // a stale entry
      }
      if (at.equals(to)) {
        return OptionalLong.of(d);
      }
      // Only a switch passes anything on: an endpoint is where a chain starts or ends.
      if (!at.equals(from) && topology.switchSpec(at).isEmpty()) {
        continue;
      }
      long leave = topology.switchSpec(at).isPresent() && !at.equals(from) ? switchLatencyNs : 0;
      for (LinkSpec link : topology.links()) {
        String a = LinkSpec.componentOf(link.a());
        String b = LinkSpec.componentOf(link.b());
        String next = a.equals(at) ? b : b.equals(at) ? a : null;
        if (next == null || next.equals(at)) {
          continue;
        }
        long nd = d + leave + link.params().leastFlightNs();
        if (nd < best.getOrDefault(next, Long.MAX_VALUE)) {
          best.put(next, nd);
          open.add(Map.entry(next, nd));
        }
      }
    }
    return OptionalLong.empty();
  }
}
