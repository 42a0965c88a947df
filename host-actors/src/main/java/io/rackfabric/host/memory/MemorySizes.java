package io.rackfabric.host.memory;

import io.rackfabric.fabric.address.AddressRange;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Byte counts and addresses as people write them about memory maps: sizes in the largest unit
 * that divides them ({@code 1600GiB}), addresses as a sum of units the way Ladon writes them
 * ({@code 1TiB + 96GiB} for "1T + 96GB"), and hex grouped by four digits ({@code 0x118_0000_0000})
 * as the topology files write it. Values are unsigned; BigInteger overloads exist because a
 * rejected layout may add up to more than 64 bits.
 */
public final class MemorySizes {

  private static final String[] UNITS = {"EiB", "PiB", "TiB", "GiB", "MiB", "KiB"};
  private static final int[] SHIFTS = {60, 50, 40, 30, 20, 10};

  private MemorySizes() {}

  /** {@code 32GiB}, {@code 1600GiB}, {@code 4660B}: the largest unit that divides exactly. */
  public static String size(long bytes) {
    return size(unsigned(bytes));
  }

  public static String size(BigInteger bytes) {
    for (int i = 0; i < UNITS.length; i++) {
      BigInteger unit = BigInteger.ONE.shiftLeft(SHIFTS[i]);
      if (bytes.compareTo(unit) >= 0 && bytes.mod(unit).signum() == 0) {
        return bytes.divide(unit) + UNITS[i];
      }
    }
    return bytes + "B";
  }

  /** {@code 0}, {@code 96GiB}, {@code 1TiB + 96GiB}: an address as a sum of whole units. */
  public static String position(long address) {
    return position(unsigned(address));
  }

  public static String position(BigInteger address) {
    if (address.signum() == 0) {
      return "0";
    }
    List<String> parts = new ArrayList<>();
    BigInteger rest = address;
    // TiB and below only: "16384TiB" reads better in a 64-bit map than "16PiB", and nobody
    // writes a physical address in PiB.
    for (int i = 2; i < UNITS.length; i++) {
      BigInteger unit = BigInteger.ONE.shiftLeft(SHIFTS[i]);
      BigInteger[] qr = rest.divideAndRemainder(unit);
      if (qr[0].signum() > 0) {
        parts.add(qr[0] + UNITS[i]);
      }
      rest = qr[1];
    }
    if (rest.signum() > 0) {
      parts.add(rest + "B");
    }
    return String.join(" + ", parts);
  }

  /** {@code 0x118_0000_0000}: upper-case hex, underscores between groups of four digits. */
  public static String hex(long address) {
    String digits = Long.toHexString(address).toUpperCase(Locale.ROOT);
    StringBuilder sb = new StringBuilder();
    int lead = digits.length() % 4 == 0 ? 4 : digits.length() % 4;
    sb.append(digits, 0, lead);
    for (int i = lead; i < digits.length(); i += 4) {
      sb.append('_').append(digits, i, i + 4);
    }
    return "0x" + sb;
  }

  /** {@code [1TiB + 96GiB, 1TiB + 128GiB)}: a range half-open, as Ladon writes them. */
  public static String halfOpen(AddressRange r) {
    return "[" + position(r.base()) + ", " + position(unsigned(r.limit()).add(BigInteger.ONE)) + ")";
  }

  /** The size of a {@code bits}-bit address space, {@code 256TiB} for 48. */
  public static String space(int bits) {
    return size(BigInteger.ONE.shiftLeft(bits));
  }

  static BigInteger unsigned(long value) {
    BigInteger b = BigInteger.valueOf(value);
    return value >= 0 ? b : b.add(BigInteger.ONE.shiftLeft(64));
  }
}
