package io.rackfabric.fabric.stats;

import io.rackfabric.fabric.wire.WireMessage;
import java.util.List;

/**
 * A memory endpoint's view of a run: what it received and answered, and as a traffic source what
 * it sent. {@code latencyHistogram} is an HdrHistogram of one-way model latency in ns (posted
 * writes, arrival minus origin) in its compressed encoding, kept to 2 significant digits;
 * {@code minLatencyNs} and {@code maxLatencyNs} are exact (0 before the first write).
 */
public record EndpointStats(
    String id,
    long writesReceived,
    long uniqueWrites,
    long duplicateWrites,
    long reorderedWrites,
    long bytesWritten,
    long readsServed,
    long outsideBars,
    long writesSent,
    long readsSent,
    long readsCompleted,
    long readsFailed,
    byte[] latencyHistogram,
    long minLatencyNs,
    long maxLatencyNs,
    List<AerRecord> aerReceived,
    PortStats link)
    implements WireMessage {

  /** An AER message that reached this endpoint as the root complex. */
  public record AerRecord(String source, String severity, String cause, long modelAt)
      implements WireMessage {}
}
