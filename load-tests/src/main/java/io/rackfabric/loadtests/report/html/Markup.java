package io.rackfabric.loadtests.report.html;

import java.util.Locale;

/** Escaping and number text shared by the SVG and HTML writers. */
public final class Markup {

  private Markup() {}

  /** Text safe inside an element or a double- or single-quoted attribute of HTML or SVG. */
  public static String escape(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder b = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> b.append("&amp;");
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> {
          // XML 1.0 forbids most control characters even as references: drop them.
          if (c >= 0x20 || c == '\n' || c == '\t' || c == '\r') {
            b.append(c);
          }
        }
      }
    }
    return b.toString();
  }

  /** A coordinate: two decimals are finer than a pixel, and keep the files small. */
  static String coord(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e9) {
      return Long.toString((long) v);
    }
    return String.format(Locale.ROOT, "%.2f", v);
  }

  /** A value with {@code decimals} decimals and thousands separators, minus zero shown as 0. */
  static String number(double v, int decimals) {
    String s = String.format(Locale.ROOT, "%,." + Math.max(0, decimals) + "f", v);
    return s.matches("-0(\\.0*)?") ? s.substring(1) : s;
  }
}
