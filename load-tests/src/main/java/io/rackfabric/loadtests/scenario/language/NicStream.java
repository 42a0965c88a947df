package io.rackfabric.loadtests.scenario.language;

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
   * The most frames a run's streams send in all, so also the most one host sends: a stated bound on
   * a stream's length, hours of wall time on a small machine. The heap does not set it any more:
   * the run's receiver folds each frame into fixed-size statistics per VF
   * ({@code io.rackfabric.host.nic.ArrivalStream}) instead of keeping it.
   */
  public static final int MAX_FRAMES = 10_000_000;

  public NicStream {
    from = List.copyOf(from);
  }
}
