package io.rackfabric.loadtests.report;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One reported number with its unit and its clock: "model" (emulated time, from the causal chain
 * of messages), "wall" (measured on this machine) or "count".
 */
public record Figure(String name, double value, String unit, String clock) {

  /** The value as a table prints it: whole numbers with separators, others to three decimals. */
  public static String text(double value) {
    return value == Math.rint(value) && Math.abs(value) < 1e15 ? String.format("%,d", (long) value)
        : String.format("%,.3f", value);
  }

  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", name);
    m.put("value", value == Math.rint(value) && Math.abs(value) < 1e15 ? (Object) (long) value : (Object) value);
    m.put("unit", unit);
    m.put("clock", clock);
    return m;
  }
}
