package io.rackfabric.cluster.scenario;

import java.util.List;

/**
 * A scenario's {@code nic-stream}: compute hosts that send UDP through a VF of the rack's NIC to
 * the server outside the rack for the run (Ladon section 5.2). Host {@code from.get(i)} gets
 * VF {@code i}, assigned by the management host's PF driver before traffic starts.
 *
 * @param from the sending compute hosts, each once
 * @param count packets each host sends
 * @param payload UDP payload per packet, bytes
 * @param intervalNs model time between a host's packets
 */
public record NicStream(List<String> from, int count, int payload, long intervalNs) {

  /**
   * The most frames a run's streams send in all, so also the most one host sends. The run's
   * receiver keeps every arrival until the run ends (a {@code ReceiverReport.Arrival}, about 60
   * bytes with its list slot) and a stream's result boxes three more longs per arrival: about 150
   * bytes a frame, so 10 million frames take some 1.5 GB of heap, what a run's JVM has on the
   * default heap of a machine with 8 GB or more. Integer.MAX_VALUE, the bound before, was far past
   * any heap.
   */
  public static final int MAX_FRAMES = 10_000_000;

  public NicStream {
    from = List.copyOf(from);
  }
}
