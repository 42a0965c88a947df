package io.rackfabric.cluster.topology;

import io.rackfabric.cluster.topology.RouteExplanation.Hop;
import io.rackfabric.fabric.address.Addresses;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The data path of one transfer from a source device to a destination, as the route explainer
 * follows its TLPs, and its hops as Device Lending counts them for its Figures 13 and 17
 * (Markussen et al., "Flexible device compositions and dynamic resource sharing in PCIe
 * interconnected clusters using Device Lending", section 7.3): the elements the data passes, each
 * time it passes one ("the external transparent link four times", "three CPU roots"). Here an
 * element is a component of the topology: the source device, every switch chip, every root, the
 * destination. A root that relays a request back down (the lender's IOMMU) is passed once more
 * each time; an NTB chip is one element, as the adapter pair and its cable are one chip.
 *
 * <p>Two kinds of transfer: peer to peer, the source writes into the destination's BAR (the data
 * path is the write's); via RAM, the source writes into a root's RAM and the destination reads it
 * back (the read's data comes back the way its request went, so the data path is the write's
 * followed by the read's reversed, the RAM's root counted once).
 *
 * @param components the components the data passes, in order, source first
 * @param ntbCrossings the NTB translations applied on the way
 */
public record DataPath(List<String> components, int ntbCrossings) {

  public DataPath {
    components = List.copyOf(components);
  }

  /** The hops: every element passed, both ends included. */
  public int hops() {
    return components.size();
  }

  /** How many times the data passes {@code component}. */
  public int passes(String component) {
    return Collections.frequency(components, component);
  }

  /** How many times the data passes a root (a host's CPU root and its RAM). */
  public int roots(Topology topology) {
    return (int) components.stream()
        .filter(c -> topology.endpoint(c).map(EndpointSpec::root).orElse(false)).count();
  }

  /** The path in one line: {@code gpu1 > chassis-sw > gpu2}. */
  public String line() {
    return String.join(" > ", components);
  }

  /**
   * A peer-to-peer transfer: {@code source} writes {@code address}.
   *
   * @throws IllegalArgumentException naming the address when the write is not delivered
   */
  public static DataPath peerToPeer(Topology topology, String source, long address) {
    RouteExplanation write = delivered(new RouteExplainer(topology).explain(source, address, false), source, address);
    return new DataPath(components(write), ntb(write));
  }

  /**
   * A transfer via RAM: {@code source} writes {@code writeAddress} into a root's RAM, then
   * {@code destination} reads it at {@code readAddress} (its own address for the same RAM).
   *
   * @throws IllegalArgumentException naming the addresses when either request is not delivered or
   *     the two do not end in the same root's RAM
   */
  public static DataPath viaRam(Topology topology, String source, long writeAddress, String destination,
      long readAddress) {
    RouteExplainer routes = new RouteExplainer(topology);
    RouteExplanation write = delivered(routes.explain(source, writeAddress, false), source, writeAddress);
    RouteExplanation read = delivered(routes.explain(destination, readAddress, true), destination, readAddress);
    boolean inRam = topology.endpoint(write.target()).map(EndpointSpec::root).orElse(false);
    if (!inRam || !write.target().equals(read.target())) {
      throw new IllegalArgumentException("via RAM: " + source + "'s write of " + Addresses.hex(writeAddress)
          + " ends at " + write.target() + " and " + destination + "'s read of " + Addresses.hex(readAddress)
          + " at " + read.target() + ": both must end in the same root's RAM");
    }
    List<String> path = new ArrayList<>(components(write));
    List<String> back = new ArrayList<>(components(read));
    Collections.reverse(back);
    path.addAll(back.subList(1, back.size()));
    return new DataPath(path, ntb(write) + ntb(read));
  }

  private static RouteExplanation delivered(RouteExplanation r, String from, long address) {
    if (!r.delivered()) {
      throw new IllegalArgumentException((r.read() ? "read" : "write") + " of " + Addresses.hex(address)
          + " from " + from + " is not delivered: " + r.ending());
    }
    return r;
  }

  private static List<String> components(RouteExplanation r) {
    return r.hops().stream().map(Hop::component).toList();
  }

  private static int ntb(RouteExplanation r) {
    return r.hops().stream().mapToInt(h -> h.translations().size()).sum();
  }
}
