package io.rackfabric.fabric.endpoint;

import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.wire.WireMessage;

/**
 * What a memory endpoint tells the software watching it (a host's drivers): a write landed in a
 * watched range (a mailbox, a doorbell, a queue), or an error report reached it as a root. Each
 * carries the model time it happened; the software adds its own polling or interrupt delay.
 */
public sealed interface EndpointEvent extends WireMessage
    permits EndpointEvent.MemoryWritten, EndpointEvent.ErrorReported, EndpointEvent.PathTableWritten {

  /** A posted write into a watched range; {@code data} is null for a bulk write. */
  record MemoryWritten(String endpoint, long address, int length, byte[] data, int requester, long arrivedAt)
      implements EndpointEvent {}

  /** An AER message that reached this root, or this root's own link going down. */
  record ErrorReported(String endpoint, EndpointStats.AerRecord error) implements EndpointEvent {}

  /**
   * The fabric manager's distribution of paths reached this endpoint whole (its header write was
   * applied at model {@code writtenAt}): {@code table} is the path table its device manager holds.
   */
  record PathTableWritten(String endpoint, io.rackfabric.fabric.management.PathTable table, long writtenAt)
      implements EndpointEvent {}
}
