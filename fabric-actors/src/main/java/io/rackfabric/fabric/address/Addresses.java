package io.rackfabric.fabric.address;

import java.math.BigInteger;
import java.util.Locale;

/** Parsing and printing of 64-bit addresses and sizes as users write them in files and flags. */
public final class Addresses {

  private static final BigInteger MAX_U64 = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

  private Addresses() {}

  public static String hex(long address) {
    return "0x" + Long.toHexString(address).toUpperCase(Locale.ROOT);
  }

  /** A size in the largest binary unit that divides it: {@code 16KiB}, {@code 256MiB}, {@code 100B}. */
  public static String size(long bytes) {
    String[] units = {"EiB", "PiB", "TiB", "GiB", "MiB", "KiB"};
    int[] shifts = {60, 50, 40, 30, 20, 10};
    for (int i = 0; i < units.length; i++) {
      long unit = 1L << shifts[i];
      if (bytes >= unit && bytes % unit == 0) {
        return (bytes / unit) + units[i];
      }
    }
    return bytes + "B";
  }

  /**
   * Parses {@code 0x90000}, {@code 589824}, {@code 32GiB}, {@code 1TiB} or {@code 4KiB} into an
   * unsigned 64-bit value.
   *
   * @throws IllegalArgumentException naming the text when it is not a number or exceeds 64 bits
   */
  public static long parse(String text) {
    String t = text.trim().replace("_", "");
    if (t.isEmpty()) {
      throw new IllegalArgumentException("'" + text + "' is not an address or size");
    }
    BigInteger value;
    try {
      if (t.startsWith("0x") || t.startsWith("0X")) {
        String digits = t.substring(2);
        if (digits.isEmpty() || digits.charAt(0) == '-' || digits.charAt(0) == '+') {
          throw new NumberFormatException();
        }
        value = new BigInteger(digits, 16);
      } else {
        int split = 0;
        while (split < t.length() && Character.isDigit(t.charAt(split))) {
          split++;
        }
        if (split == 0) {
          throw new NumberFormatException();
        }
        value = new BigInteger(t.substring(0, split)).multiply(unit(t.substring(split).trim(), text));
      }
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "' is not an address or size");
    }
    if (value.signum() < 0 || value.compareTo(MAX_U64) > 0) {
      throw new IllegalArgumentException("'" + text + "' is outside 64 bits");
    }
    return value.longValue();
  }

  private static BigInteger unit(String suffix, String text) {
    long multiplier =
        switch (suffix.toLowerCase(Locale.ROOT)) {
          case "", "b" -> 1L;
          case "k", "kib", "kb" -> 1L << 10;
          case "m", "mib", "mb" -> 1L << 20;
          case "g", "gib", "gb" -> 1L << 30;
          case "t", "tib", "tb" -> 1L << 40;
          case "p", "pib", "pb" -> 1L << 50;
          default -> throw new IllegalArgumentException(
              "'" + text + "' has unknown unit '" + suffix + "' (use KiB, MiB, GiB, TiB)");
        };
    return BigInteger.valueOf(multiplier);
  }
}
