package io.rackfabric.loadtests.scenario.language;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A kind's parameters as parsed, defaults filled in; absent optional parameters without a default
 * are not in the map. Immutable.
 */
public record Params(Map<String, Object> values) {

  public static final Params NONE = new Params(Map.of());

  public Params {
    values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  public boolean has(String name) {
    return values.containsKey(name);
  }

  /** A {@link ParamType#DURATION} or {@link ParamType#COUNT} parameter, or {@code dflt}. */
  public long number(String name, long dflt) {
    Object v = values.get(name);
    return v == null ? dflt : (Long) v;
  }

  /** A {@link ParamType#PROBABILITY} parameter, or {@code dflt}. */
  public double probability(String name, double dflt) {
    Object v = values.get(name);
    return v == null ? dflt : (Double) v;
  }

  /** A text or id parameter, or null. */
  public String text(String name) {
    Object v = values.get(name);
    return v == null ? null : v.toString();
  }

  public boolean flag(String name, boolean dflt) {
    Object v = values.get(name);
    return v == null ? dflt : (Boolean) v;
  }

  /** A {@link ParamType#TRAFFIC} parameter, or an empty list. */
  @SuppressWarnings("unchecked")
  public List<String> names(String name) {
    Object v = values.get(name);
    return v == null ? List.of() : (List<String>) v;
  }
}
