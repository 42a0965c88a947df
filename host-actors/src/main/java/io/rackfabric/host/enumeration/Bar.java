package io.rackfabric.host.enumeration;

import io.rackfabric.fabric.address.AddressRange;

/**
 * A memory BAR as enumeration found and programmed it: its size from the size mask read back
 * after writing all ones, its type bits, and the base assigned (null when none could be).
 *
 * @param index the BAR's register number as PCIe counts it: a 64-bit BAR takes two, so the
 *     second 64-bit BAR of a function is BAR2 (a function's BARs are listed in order, the order
 *     a topology file lists them)
 */
public record Bar(int index, long size, boolean is64, boolean prefetchable, Long base) {

  public boolean assigned() {
    return base != null;
  }

  /** The decoded range, or null when unassigned. */
  public AddressRange range() {
    return base == null ? null : AddressRange.ofSize(base, size);
  }
}
