package io.rackfabric.loadtests.scenario.language;

import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigValueFactory;
import java.time.Duration;
import java.util.Locale;

/** Durations as scenario files write them ("5us", "1.5ms", "2s") and as messages print them. */
public final class Durations {

  private Durations() {}

  /**
   * Nanoseconds of a duration with a unit. HOCON's units: ns, us, ms, s, m, h, d (and their long
   * forms).
   *
   * @throws IllegalArgumentException naming the text when it is not a duration with a unit, or is
   *     negative
   */
  public static long parseNanos(String text) {
    String t = text.trim();
    if (t.isEmpty()) {
      throw new IllegalArgumentException("empty duration");
    }
    if (t.chars().allMatch(c -> Character.isDigit(c) || c == '.')) {
      throw new IllegalArgumentException("'" + t + "' needs a unit, e.g. " + t + "us");
    }
    Duration d;
    try {
      d = ConfigValueFactory.fromAnyRef(t).atKey("d").getDuration("d");
    } catch (ConfigException | ArithmeticException e) {
      throw new IllegalArgumentException("'" + t + "' is not a duration (use ns, us, ms or s)");
    }
    if (d.isNegative()) {
      throw new IllegalArgumentException("'" + t + "' is negative");
    }
    return d.toNanos();
  }

  /** The shortest exact rendering: {@code 50us}, {@code 1500ns}, {@code 2s}. */
  public static String text(long nanos) {
    String[] units = {"s", "ms", "us", "ns"};
    long[] scale = {1_000_000_000L, 1_000_000L, 1_000L, 1L};
    for (int i = 0; i < units.length; i++) {
      if (nanos != 0 && nanos % scale[i] == 0) {
        return (nanos / scale[i]) + units[i];
      }
    }
    return nanos + "ns";
  }

  /** A measured wall time: {@code 0.559s}, to the millisecond. */
  public static String seconds(long nanos) {
    return String.format(Locale.ROOT, "%.3fs", nanos / 1e9);
  }

  /**
   * Requests per second of a rate written {@code "10M/s"}, {@code "2.5k/s"} or {@code "1000/s"}.
   *
   * @throws IllegalArgumentException naming the text when it is not such a rate or not positive
   */
  public static double parseRate(String text) {
    String t = text.trim();
    String lower = t.toLowerCase(Locale.ROOT);
    if (!lower.endsWith("/s")) {
      throw new IllegalArgumentException("rate '" + t + "' is not N/s (e.g. \"10M/s\", \"500k/s\")");
    }
    String number = t.substring(0, t.length() - 2).trim();
    double factor = 1;
    if (!number.isEmpty()) {
      char suffix = number.charAt(number.length() - 1);
      factor = switch (suffix) {
        case 'k', 'K' -> 1e3;
        case 'M' -> 1e6;
        case 'G' -> 1e9;
        default -> 1;
      };
      if (factor != 1) {
        number = number.substring(0, number.length() - 1);
      }
    }
    double value;
    try {
      value = Double.parseDouble(number) * factor;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("rate '" + t + "' is not N/s (e.g. \"10M/s\", \"500k/s\")");
    }
    if (!(value > 0) || Double.isInfinite(value)) {
      throw new IllegalArgumentException("rate '" + t + "' must be above 0");
    }
    return value;
  }
}
