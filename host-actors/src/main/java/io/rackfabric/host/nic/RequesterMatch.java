package io.rackfabric.host.nic;

import io.rackfabric.fabric.tlp.Bdf;

/**
 * Which requester IDs a VF accepts register writes from: those equal to {@code requester} in the
 * bits set in {@code mask}. As a register value (VF_OWNER0/1) it is {@code mask << 16 |
 * requester}; a mask of 0 means the slot is unused, since it would match everyone.
 *
 * <p>A compute host's writes reach the NIC under the proxy ID its NTB port gives them (the NTB's
 * link-side bus and device, and a function picked from its requester table on first use), so the
 * MH assigns a VF by NTB port: {@link #throughNtb} matches any function of that device.
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
   * Every requester proxied by the NTB whose link-side endpoint is {@code linkSideBdf}: its bus
   * and device, any function.
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
