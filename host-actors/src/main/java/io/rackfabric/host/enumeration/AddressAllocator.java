package io.rackfabric.host.enumeration;

import io.rackfabric.fabric.address.AddressRange;
import java.util.List;

/** Hands out addresses upward from a start, skipping reserved blocks (a slot group's). */
final class AddressAllocator {

  private final AddressRange range;
  private final boolean relative;
  private final List<AddressRange> avoid;
  private long next;

  private AddressAllocator(AddressRange range, boolean relative, List<AddressRange> avoid) {
    this.range = range;
    this.relative = relative;
    this.avoid = avoid;
    this.next = range.base();
  }

  /** Natural alignment (a BAR's base a multiple of its size), around {@code avoid}. */
  static AddressAllocator natural(AddressRange aperture, List<AddressRange> avoid) {
    return new AddressAllocator(aperture, false, List.copyOf(avoid));
  }

  /** Alignment counted from the range's base: a slot block need not be aligned to its BARs. */
  static AddressAllocator relative(AddressRange block) {
    return new AddressAllocator(block, true, List.of());
  }

  void alignUp(long align) {
    Long a = aligned(next, align);
    next = a == null ? range.limit() + 1 : a;
  }

  void skipPast(long limit) {
    if (Long.compareUnsigned(limit + 1, next) > 0) {
      next = limit + 1;
    }
  }

  Long take(long size, long align) {
    Long candidate = aligned(next, align);
    boolean moved = true;
    while (candidate != null && moved) {
      moved = false;
      long last = candidate + size - 1;
      for (AddressRange r : avoid) {
        if (Long.compareUnsigned(r.base(), last) <= 0 && Long.compareUnsigned(candidate, r.limit()) <= 0) {
          candidate = aligned(r.limit() + 1, align);
          moved = true;
          break;
        }
      }
    }
    if (candidate == null || size <= 0) {
      return null;
    }
    long last = candidate + size - 1;
    if (Long.compareUnsigned(last, candidate) < 0 || Long.compareUnsigned(last, range.limit()) > 0) {
      return null;
    }
    next = last + 1;
    return candidate;
  }

  private Long aligned(long address, long align) {
    long origin = relative ? range.base() : 0;
    long offset = address - origin;
    long up = offset + align - 1;
    if (Long.compareUnsigned(up, offset) < 0) {
      return null;
    }
    return origin + (up & -align);
  }

  String describe() {
    return range.toString();
  }
}
