package io.rackfabric.cluster.topology;

import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.address.Addresses;

/**
 * An address range in a topology file, as {@link Fields#range} and {@link Fields#baseSizeOrLimit}
 * read it: {@code ["0x90000", "0xEFFFF"]} (base and inclusive limit, as a bridge's base/limit
 * registers hold them), {@code { base = ..., size = ... }} or {@code { base = ..., limit = ... }}.
 * Problems are reported against the value's line and key; the result is then null.
 */
final class AddressRangeField {

  private AddressRangeField() {}

  /** The range of key {@code name} of {@code f}, whose value {@code v} is present. */
  static AddressRange of(Fields f, String name, ConfigValue v) {
    if (v.valueType() == ConfigValueType.LIST) {
      ConfigList l = (ConfigList) v;
      if (l.size() != 2) {
        f.error(name, "expected [base, limit] (two addresses), got " + l.size() + " values");
        return null;
      }
      Long base = f.addressValue(l.get(0), f.key(name) + "[0]");
      Long limit = f.addressValue(l.get(1), f.key(name) + "[1]");
      if (base == null || limit == null) {
        return null;
      }
      if (Long.compareUnsigned(base, limit) > 0) {
        f.error(name, "base " + Addresses.hex(base) + " is above limit " + Addresses.hex(limit)
            + " (the limit is the last byte, inclusive)");
        return null;
      }
      return new AddressRange(base, limit);
    }
    if (v.valueType() == ConfigValueType.OBJECT) {
      Fields inner = new Fields((ConfigObject) v, f.key(name), f.problems());
      inner.allowOnly("base", "size", "limit");
      return baseSizeOrLimit(inner);
    }
    f.error(name, "expected [base, limit] or { base, size }, got " + Fields.describe(v));
    return null;
  }

  /** {@code f}'s {@code base} with either {@code size} or {@code limit}, as a range. */
  static AddressRange baseSizeOrLimit(Fields f) {
    Long base = f.address("base", true);
    boolean hasSize = f.has("size");
    boolean hasLimit = f.has("limit");
    if (hasSize && hasLimit) {
      f.error("limit", "give either size or limit, not both");
      return null;
    }
    if (!hasSize && !hasLimit) {
      f.problems().add(f.origin(), f.key("size"), "missing (required: size, or limit)");
      return null;
    }
    Long other = f.address(hasSize ? "size" : "limit", true);
    if (base == null || other == null) {
      return null;
    }
    if (hasSize) {
      if (other == 0) {
        f.error("size", "size=0: a window needs at least one byte");
        return null;
      }
      long limit = base + other - 1;
      if (Long.compareUnsigned(limit, base) < 0) {
        f.error("size", "base " + Addresses.hex(base) + " + size " + Addresses.hex(other)
            + " runs past the 64-bit address space");
        return null;
      }
      return new AddressRange(base, limit);
    }
    if (Long.compareUnsigned(base, other) > 0) {
      f.error("limit", "base " + Addresses.hex(base) + " is above limit " + Addresses.hex(other));
      return null;
    }
    return new AddressRange(base, other);
  }
}
