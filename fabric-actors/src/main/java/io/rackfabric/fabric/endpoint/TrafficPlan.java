package io.rackfabric.fabric.endpoint;

import io.rackfabric.fabric.wire.WireMessage;

/**
 * A traffic generator's job: {@code count} requests of {@code size} bytes, walking the window
 * [address, address + span) in steps of size, one every {@code intervalNs} of model time, as fast
 * in wall time as credits allow.
 *
 * @param reads memory reads (answered by completions) instead of posted writes
 * @param withData posted writes carry a payload pattern the receiver can check; otherwise bulk
 * @param startAt the model time of the first request, or -1 for the endpoint's clock when the job
 *     starts. A scenario's schedule fixes it: the generator is a source of its own, like a DMA
 *     engine, and its stamps must not move because host software on the same host ran ahead.
 */
public record TrafficPlan(
    long address, long span, int size, long count, long intervalNs, boolean reads, boolean withData,
    long startAt)
    implements WireMessage {

  /** A plan that starts at the endpoint's clock. */
  public TrafficPlan(
      long address, long span, int size, long count, long intervalNs, boolean reads, boolean withData) {
    this(address, span, size, count, intervalNs, reads, withData, -1);
  }

  public TrafficPlan {
    if (size < 1 || size > 4096) {
      throw new IllegalArgumentException("size=" + size + " not in [1,4096]");
    }
    if (span < size) {
      throw new IllegalArgumentException("span=" + span + " is smaller than size=" + size);
    }
    if (count < 0) {
      throw new IllegalArgumentException("count=" + count + " is negative");
    }
    if (intervalNs < 0) {
      throw new IllegalArgumentException("intervalNs=" + intervalNs + " is negative");
    }
    if (startAt < -1) {
      throw new IllegalArgumentException("startAt=" + startAt + " is neither a model time nor -1");
    }
  }

  /** The payload of request {@code n}: n in every 8 bytes, so a receiver can check it. */
  public static byte[] payload(long n, int size) {
    java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(size);
    while (b.remaining() >= 8) {
      b.putLong(n);
    }
    while (b.hasRemaining()) {
      b.put((byte) n);
    }
    return b.array();
  }

  public long addressOf(long i) {
    long slots = span / size;
    return address + (i % slots) * size;
  }
}
