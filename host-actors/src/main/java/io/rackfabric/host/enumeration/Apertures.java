package io.rackfabric.host.enumeration;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.address.Addresses;

/**
 * The address ranges a root complex hands out below itself (a platform fact, like a host bridge's
 * windows in ACPI): {@code memory} for non-prefetchable BARs, below 4 GiB because a bridge's
 * memory window has 32 bits; {@code prefetchable} for 64-bit prefetchable BARs, or null to put
 * them in the memory window too.
 */
public record Apertures(AddressRange memory, AddressRange prefetchable) {

  /** Memory in the top GiB below 4 GiB, prefetchable from 64 GiB to the end of 48 bits. */
  public static final Apertures DEFAULT = new Apertures(
      new AddressRange(0xC000_0000L, 0xFFFF_FFFFL), new AddressRange(64L << 30, (1L << 48) - 1));

  public Apertures {
    if (memory == null) {
      throw new IllegalArgumentException("memory aperture missing");
    }
    if (Long.compareUnsigned(memory.limit(), 0xFFFF_FFFFL) > 0) {
      throw new IllegalArgumentException("memory aperture " + memory + " ends above 4GiB ("
          + Addresses.hex(0xFFFF_FFFFL) + "): a memory window has 32 bits");
    }
  }
}
