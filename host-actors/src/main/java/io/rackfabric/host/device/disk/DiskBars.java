package io.rackfabric.host.device.disk;

import io.rackfabric.fabric.address.AddressRange;
import java.util.List;

/**
 * Where the disk's endpoint decodes what: BAR0 its registers ({@link DiskRegisters}). The disk has
 * no memory BAR: its blocks are reached only through commands. BARs after BAR0 are left as memory.
 */
public record DiskBars(AddressRange registers) {

  /** The layout of an endpoint with {@code bars}; refused, naming what is wrong, if they do not fit. */
  public static DiskBars of(List<AddressRange> bars) {
    if (bars.isEmpty()) {
      throw new IllegalArgumentException("a disk needs BAR0 (registers), got no BAR");
    }
    AddressRange bar0 = bars.get(0);
    if (bar0.size() < DiskRegisters.MIN_BAR0) {
      throw new IllegalArgumentException("BAR0 " + bar0 + " is " + bar0.size() + " bytes, below the "
          + DiskRegisters.MIN_BAR0 + " of the register BAR");
    }
    return new DiskBars(bar0);
  }
}
