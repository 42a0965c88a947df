package io.rackfabric.fabric.routing;

import io.rackfabric.fabric.ntb.NtbConfig;
import io.rackfabric.fabric.ntb.NtbDirection;
import io.rackfabric.fabric.ntb.ProxyIdSpace;
import io.rackfabric.fabric.ntb.RequesterIdEntry;
import io.rackfabric.fabric.tlp.Bdf;
import java.util.BitSet;
import java.util.List;

/**
 * Programmed requester IDs as pure functions of an NTB's configuration: what the management host
 * computes to know under which ID one host's accesses arrive at another (the ID its IOMMU entries
 * must name), without asking the switch.
 *
 * <p>A request from host B to host C crosses two NTBs (Ladon section 4.1): B's NTB toward the switch
 * ({@link NtbDirection#TO_LINK}) and C's NTB into C's domain ({@link NtbDirection#TO_VIRTUAL}). The
 * ID it arrives under at C is therefore {@code proxyId(C's NTB, TO_VIRTUAL, proxyId(B's NTB,
 * TO_LINK, B's own ID))}, each of them programmed.
 */
public final class RequesterIds {

  private RequesterIds() {}

  /**
   * The ID requests of {@code original} carry after crossing {@code ntb} in {@code direction}, by
   * its programmed entry; -1 when {@code original} has none (it would get one on first use, whose
   * ID depends on traffic order).
   *
   * @param internalBus the switch's internal bus (matters only for a link side without a bus of
   *     its own); {@link RoutingTable#internalBus}
   * @param portNumber the NTB port's number (likewise)
   */
  public static int proxyId(
      NtbConfig ntb, int internalBus, int portNumber, NtbDirection direction, int original) {
    int index = ntb.programmedIndex(direction, original);
    return index < 0 ? -1 : ProxyIdSpace.of(ntb, direction, internalBus, portNumber).id(index);
  }

  /**
   * {@link #proxyId(NtbConfig, int, int, NtbDirection, int)} for port {@code portNumber} of a
   * switch's routing table.
   *
   * @throws IllegalArgumentException naming the port when it is missing or not an NTB port
   */
  public static int proxyId(RoutingTable table, int portNumber, NtbDirection direction, int original) {
    PortConfig port = ntbPort(table, portNumber);
    return proxyId(port.ntb(), table.internalBus(port.virtualSwitch()), portNumber, direction, original);
  }

  /**
   * {@code ntb} with {@code original} programmed as a switch port programs it on a table no
   * traffic has touched yet: at the lowest index no programmed entry holds. Unchanged when
   * {@code original} is programmed already. Programming in host order thus gives host i index i.
   *
   * @throws IllegalArgumentException when the table has no free index left
   */
  public static NtbConfig program(NtbConfig ntb, NtbDirection direction, int original) {
    if (ntb.programmedIndex(direction, original) >= 0) {
      return ntb;
    }
    BitSet taken = new BitSet();
    for (RequesterIdEntry e : ntb.requesterIds(direction)) {
      taken.set(e.index());
    }
    int index = taken.nextClearBit(0);
    if (index >= ntb.capacity(direction)) {
      throw new IllegalArgumentException("cannot program " + Bdf.format(original) + " " + direction
          + ": all " + ntb.capacity(direction) + " entries of the table are programmed");
    }
    return ntb.withRequesterId(new RequesterIdEntry(direction, index, original));
  }

  /** {@link #program} for each of {@code originals}, in order. */
  public static NtbConfig programAll(NtbConfig ntb, NtbDirection direction, List<Integer> originals) {
    NtbConfig out = ntb;
    for (int original : originals) {
      out = program(out, direction, original);
    }
    return out;
  }

  private static PortConfig ntbPort(RoutingTable table, int portNumber) {
    PortConfig port = table.port(portNumber);
    if (port == null) {
      throw new IllegalArgumentException("no port number=" + portNumber + " in the routing table");
    }
    if (port.role() != PortRole.NTB) {
      throw new IllegalArgumentException(
          "port " + port.name() + " (number=" + portNumber + ") is " + port.role() + ", not an NTB port");
    }
    return port;
  }
}
