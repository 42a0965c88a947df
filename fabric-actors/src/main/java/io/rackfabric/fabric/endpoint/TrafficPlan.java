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
 * @param follow how the addresses follow the endpoint's path table; null: they do not
 */
public record TrafficPlan(
    long address, long span, int size, long count, long intervalNs, boolean reads, boolean withData,
    long startAt, RouteFollowing follow)
    implements WireMessage {

  /** A plan that starts at the endpoint's clock. */
  public TrafficPlan(
      long address, long span, int size, long count, long intervalNs, boolean reads, boolean withData) {
    this(address, span, size, count, intervalNs, reads, withData, -1);
  }

  /** A plan whose addresses do not follow the path table. */
  public TrafficPlan(
      long address, long span, int size, long count, long intervalNs, boolean reads, boolean withData,
      long startAt) {
    this(address, span, size, count, intervalNs, reads, withData, startAt, null);
  }

  /**
   * A generator that follows the routes the fabric manager distributed (issue 15): each request's
   * address is shifted by what the chosen route to {@code destination}, in the last path table the
   * endpoint held whole, names: {@code shifts[i]} when the route's second turn is port
   * {@code ports[i]} (in a Ladon rack, the port toward one plane's NTB chip; the shift moves the
   * address into that plane's view of the same memory). No table, no route to the destination, or
   * a port not named: no shift.
   */
  public record RouteFollowing(long destination, int[] ports, long[] shifts) implements WireMessage {

    public RouteFollowing {
      if (ports.length == 0 || ports.length != shifts.length) {
        throw new IllegalArgumentException("ports=" + java.util.Arrays.toString(ports) + " and shifts="
            + java.util.Arrays.toString(shifts) + " must name the same ports, at least one");
      }
      ports = ports.clone();
      shifts = shifts.clone();
    }

    /** The shift for {@code chosen}, the chosen route to the destination (null: none). */
    public long shift(io.rackfabric.fabric.management.Route chosen) {
      if (chosen == null || chosen.hops() < 2) {
        return 0;
      }
      int port = chosen.turns().get(1);
      for (int i = 0; i < ports.length; i++) {
        if (ports[i] == port) {
          return shifts[i];
        }
      }
      return 0;
    }
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
