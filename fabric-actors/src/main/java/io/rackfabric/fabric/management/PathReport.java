package io.rackfabric.fabric.management;

import io.rackfabric.fabric.wire.WireMessage;
import java.util.List;

/**
 * The paths a fabric manager computed and distributed (see {@link PathDistributor}).
 *
 * @param rounds one per distribution, in order: after the discovery (or a take-over), then after
 *     every rediscovery
 * @param computed the tables computed from its database as it is when the report is made
 * @param tooLong routes left out of {@code computed} for being longer than a path-table entry holds
 */
public record PathReport(List<Round> rounds, List<PathTable> computed, long tooLong) implements WireMessage {

  public PathReport {
    rounds = List.copyOf(rounds);
    computed = List.copyOf(computed);
  }

  /**
   * One distribution: the tables computed after the database settled, and the writes of the
   * entries that differ from what was distributed before, each endpoint's ended by a header write
   * of this round's {@code generation}.
   *
   * @param generation the number each written endpoint's header carries, from 1
   * @param trigger what settled the database: "discovery", "takeover" or "rediscovery N" (N from 0)
   * @param at the model time the writes left, ns
   * @param paths paths computed (entries of every table)
   * @param endpointsWritten the serial numbers of the endpoints written, in the order they were
   * @param writes PI-4 writes sent over the fabric (entries, cleared entries, headers)
   * @param localWrites writes to the fabric manager's own endpoint, applied there without packets
   * @param bytes the sent writes' bytes (AS packets, routing header included)
   */
  public record Round(int generation, String trigger, long at, long paths, List<Long> endpointsWritten, long writes,
      long localWrites, long bytes) implements WireMessage {

    public Round {
      endpointsWritten = List.copyOf(endpointsWritten);
    }
  }

  /** The computed table of endpoint {@code serial}, if it has one. */
  public java.util.Optional<PathTable> computed(long serial) {
    return computed.stream().filter(t -> t.endpoint() == serial).findFirst();
  }
}
