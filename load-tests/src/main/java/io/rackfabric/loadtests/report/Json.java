package io.rackfabric.loadtests.report;

import java.util.Collection;
import java.util.Map;

/** A small JSON writer for result files: maps, collections, strings, numbers, booleans, null. */
public final class Json {

  private Json() {}

  /** JSON text written elsewhere (another command's result file), embedded as it is. */
  public record Raw(String text) {}

  public static String write(Object value) {
    StringBuilder b = new StringBuilder();
    write(value, b, 0);
    return b.append('\n').toString();
  }

  private static void write(Object v, StringBuilder b, int indent) {
    if (v == null) {
      b.append("null");
    } else if (v instanceof Raw r) {
      b.append(r.text().strip());
    } else if (v instanceof String s) {
      quote(s, b);
    } else if (v instanceof Double d) {
      // Full precision: a figure written here is the value measured, not a rounding of it.
      b.append(d.isNaN() || d.isInfinite() ? "null" : Double.toString(d));
    } else if (v instanceof Number || v instanceof Boolean) {
      b.append(v);
    } else if (v instanceof Map<?, ?> m) {
      b.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        b.append(first ? "\n" : ",\n").append("  ".repeat(indent + 1));
        quote(String.valueOf(e.getKey()), b);
        b.append(": ");
        write(e.getValue(), b, indent + 1);
        first = false;
      }
      b.append(first ? "}" : "\n" + "  ".repeat(indent) + "}");
    } else if (v instanceof Collection<?> c) {
      b.append('[');
      boolean first = true;
      for (Object o : c) {
        b.append(first ? "\n" : ",\n").append("  ".repeat(indent + 1));
        write(o, b, indent + 1);
        first = false;
      }
      b.append(first ? "]" : "\n" + "  ".repeat(indent) + "]");
    } else {
      quote(v.toString(), b);
    }
  }

  private static void quote(String s, StringBuilder b) {
    b.append('"');
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    b.append('"');
  }
}
