package io.rackfabric.host.nic;

import io.rackfabric.fabric.tlp.Bdf;

/**
 * Which requester IDs a VF accepts register writes from: those equal to {@code requester} in the
 * bits set in {@code mask}. As a register value (VF_OWNER0/1) it is {@code mask << 16 |
 * requester}; a mask of 0 means the slot is unused, since it would match everyone. The PF's owner
 * writes it with {@link RegisterMap#assignVf}.
 *
 * <p>A compute host's writes reach the NIC under a proxy ID of its NTB port's link side (fabric
 * {@code ProxyIdSpace.linkSide}): the index of the host's entry in the port's requester-ID table,
 * as the function of the port's device on the switch's internal bus, or as an ARI number on a bus
 * of the link side's own. The entry is programmed at start when the topology names a management
 * host (a CH's root, alone in its domain, takes index 0), else taken on first use.
 * {@link #exact} names one such ID (fabric {@code RequesterIds.proxyId} computes a programmed one);
 * {@link #throughNtb} keeps the bus and device bits and ignores the function: on the internal
 * bus that is every requester the port proxies, on a bus of its own only the block of 8 entries
 * holding the given ID.
 */
public record RequesterMatch(int requester, int mask) {

  public static final RequesterMatch NONE = new RequesterMatch(0, 0);
  /** Bus and device, any function. */
  public static final int DEVICE_MASK = 0xFFF8;

  public RequesterMatch {
    if (requester < 0 || requester > 0xFFFF) {
      throw new IllegalArgumentException("requester=" + requester + " not in [0,0xFFFF]");
    }
    if (mask < 0 || mask > 0xFFFF) {
      throw new IllegalArgumentException("mask=" + mask + " not in [0,0xFFFF]");
    }
  }

  /** Exactly this requester ID. */
  public static RequesterMatch exact(int bdf) {
    return new RequesterMatch(bdf, 0xFFFF);
  }

  /**
   * The requesters proxied by the NTB link side that {@code linkSideBdf} is an ID of: its bus and
   * device, any function (all of them on the internal bus; see the class comment for a link side
   * with a bus of its own).
   */
  public static RequesterMatch throughNtb(int linkSideBdf) {
    return new RequesterMatch(linkSideBdf & DEVICE_MASK, DEVICE_MASK);
  }

  public static RequesterMatch decode(int register) {
    return new RequesterMatch(register & 0xFFFF, register >>> 16);
  }

  public int encode() {
    return mask << 16 | requester;
  }

  public boolean used() {
    return mask != 0;
  }

  public boolean matches(int requesterId) {
    return used() && (requesterId & mask) == (requester & mask);
  }

  @Override
  public String toString() {
    if (!used()) {
      return "none";
    }
    return mask == 0xFFFF ? Bdf.format(requester)
        : mask == DEVICE_MASK ? Bdf.format(requester).substring(0, 5) + ".*"
        : Bdf.format(requester) + "/" + Integer.toHexString(mask);
  }
}
