package io.rackfabric.loadtests.scenario.language;

import io.rackfabric.fabric.address.AddressRange;

/**
 * One traffic generator, checked against the topology: request {@code k} (0-based) is issued by
 * {@code from} at model time {@code startNs + k * intervalNs} to {@code address + k * size} and
 * lands in {@code sink} at {@code sinkAddress + k * size}. Its requests never wrap, so every write
 * generator owns the region of the sink it writes.
 *
 * @param to the destination as written: an endpoint id or an address
 * @param payload posted writes carry a checkable pattern ({@code TrafficPlan.payload}); false:
 *     bulk writes that carry only a length
 * @param path the route from the route explainer, e.g. {@code ch1 > tor(ntb1>ntb2) > ch2}
 * @param where {@code file:line} of the generator, for messages at run time
 * @param followRoutes its addresses follow the plane its source's path table names (a Ladon rack
 *     under a fabric manager that distributes paths)
 */
public record TrafficSpec(
    String name,
    String from,
    String to,
    Op op,
    long address,
    String sink,
    long sinkAddress,
    int size,
    long intervalNs,
    long count,
    long startNs,
    boolean payload,
    String path,
    String where,
    boolean followRoutes) {

  /** Posted memory writes, or memory reads answered by completions. */
  public enum Op {
    WRITE,
    READ;

    public String text() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  public boolean writes() {
    return op == Op.WRITE;
  }

  /** The model time request {@code k} is stamped with. */
  public long stampOf(long k) {
    return startNs + k * intervalNs;
  }

  /** The model time after the last request: its stamp plus one interval. */
  public long endNs() {
    return startNs + count * intervalNs;
  }

  /** What the requests cover in the sink's memory. */
  public AddressRange sinkRegion() {
    return AddressRange.ofSize(sinkAddress, count * size);
  }
}
