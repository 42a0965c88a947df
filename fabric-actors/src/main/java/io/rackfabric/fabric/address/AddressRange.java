package io.rackfabric.fabric.address;

import io.rackfabric.fabric.wire.WireMessage;

/**
 * An inclusive range of 64-bit PCIe addresses, compared unsigned. Inclusive because a bridge's
 * limit register is inclusive and because the top of the 64-bit space has no exclusive end.
 */
public record AddressRange(long base, long limit) implements WireMessage {

  public AddressRange {
    if (Long.compareUnsigned(base, limit) > 0) {
      throw new IllegalArgumentException(
          "base=" + Addresses.hex(base) + " is above limit=" + Addresses.hex(limit));
    }
  }

  /** A range of {@code size} bytes starting at {@code base}; size 0 is rejected. */
  public static AddressRange ofSize(long base, long size) {
    if (size == 0) {
      throw new IllegalArgumentException("size=0 at base=" + Addresses.hex(base));
    }
    long limit = base + size - 1;
    if (Long.compareUnsigned(limit, base) < 0) {
      throw new IllegalArgumentException(
          "base=" + Addresses.hex(base) + " size=" + Addresses.hex(size) + " runs past 64 bits");
    }
    return new AddressRange(base, limit);
  }

  public boolean contains(long address) {
    return Long.compareUnsigned(address, base) >= 0 && Long.compareUnsigned(address, limit) <= 0;
  }

  /** True when every byte of [address, address+length) lies in this range. */
  public boolean containsAll(long address, int length) {
    if (!contains(address)) {
      return false;
    }
    long last = address + Math.max(length, 1) - 1;
    return Long.compareUnsigned(last, address) >= 0 && contains(last);
  }

  public boolean overlaps(AddressRange other) {
    return Long.compareUnsigned(base, other.limit) <= 0
        && Long.compareUnsigned(other.base, limit) <= 0;
  }

  public boolean covers(AddressRange other) {
    return contains(other.base) && contains(other.limit);
  }

  /** Size in bytes; saturates at Long.MAX_VALUE for ranges of 2^63 bytes or more. */
  public long size() {
    long span = limit - base;
    return span < 0 || span == Long.MAX_VALUE ? Long.MAX_VALUE : span + 1;
  }

  @Override
  public String toString() {
    return "[" + Addresses.hex(base) + ".." + Addresses.hex(limit) + "]";
  }
}
