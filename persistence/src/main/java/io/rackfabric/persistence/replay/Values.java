package io.rackfabric.persistence.replay;

import io.rackfabric.fabric.address.Addresses;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Readable and JSON forms of the journal's records, component by component, so that a component
 * added to an event or record later shows up without a change here. Numbers are shown by what
 * their component names: requester IDs as 16-bit hex, addresses and sizes as hex, model times in
 * ns with thousands separators.
 */
final class Values {

  private static final Set<String> REQUESTER_IDS = Set.of("requester", "bdf", "original");
  private static final Set<String> ADDRESSES =
      Set.of("memoryBase", "memorySize", "base", "size", "translatedBase", "pageAddress", "windowBase", "windowSize",
          "windowTarget", "bufferAddress", "offset", "deviceAddress");
  private static final Set<String> MODEL_TIMES = Set.of("at", "modelNow", "templateAt", "lentAt", "fencedAt");
  private static final Map<String, String> SHORT_NAMES = Map.of("pageAddress", "page");

  private Values() {}

  static String ns(long ns) {
    return String.format(Locale.ROOT, "%,d ns", ns);
  }

  /** The components of {@code r} in declaration order. */
  static Map<String, Object> components(Record r) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (RecordComponent c : r.getClass().getRecordComponents()) {
      try {
        out.put(c.getName(), c.getAccessor().invoke(r));
      } catch (IllegalAccessException | InvocationTargetException e) {
        throw new IllegalStateException("cannot read " + c.getName() + " of " + r, e);
      }
    }
    return out;
  }

  /** {@code name=value} for each component not in {@code skip}; enum constants stand alone. */
  static String fields(Record r, Collection<String> skip) {
    List<String> parts = new ArrayList<>();
    components(r).forEach((name, v) -> {
      if (!skip.contains(name)) {
        parts.add(v instanceof Enum<?> e ? e.name() : SHORT_NAMES.getOrDefault(name, name) + "="
            + text(name, v));
      }
    });
    return String.join(" ", parts);
  }

  /** The values of the components {@code names} of {@code r}, as a key: "ch1 0x0200 0x8000". */
  static String key(Record r, List<String> names) {
    Map<String, Object> all = components(r);
    List<String> parts = new ArrayList<>();
    names.forEach(n -> parts.add(text(n, all.get(n))));
    return String.join(" ", parts);
  }

  /** One line: the record's type and its components but {@code skip}. */
  static String line(Record r, Collection<String> skip) {
    String fields = fields(r, skip);
    return r.getClass().getSimpleName() + (fields.isEmpty() ? "" : " " + fields);
  }

  static String text(String name, Object v) {
    if (v == null) {
      return "-";
    } else if ((v instanceof Integer || v instanceof Long) && REQUESTER_IDS.contains(name)) {
      return String.format(Locale.ROOT, "0x%04X", ((Number) v).longValue());
    } else if ((v instanceof Integer || v instanceof Long) && ADDRESSES.contains(name)) {
      return Addresses.hex(((Number) v).longValue());
    } else if (v instanceof Long l && MODEL_TIMES.contains(name)) {
      return ns(l);
    } else if (v instanceof Enum<?> e) {
      return e.name();
    } else if (v instanceof Record r) {
      return "(" + fields(r, List.of()) + ")";
    } else if (v instanceof List<?> list) {
      List<String> items = new ArrayList<>();
      list.forEach(item -> items.add(text(name, item)));
      return "[" + String.join(", ", items) + "]";
    }
    return String.valueOf(v);
  }

  /**
   * The value as JSON's maps, lists and plain values: records as objects of their components,
   * enums by name, anything else not a number, boolean or text (a path, an actor) as its text.
   */
  static Object json(Object v) {
    if (v == null || v instanceof Number || v instanceof Boolean || v instanceof String) {
      return v;
    } else if (v instanceof Enum<?> e) {
      return e.name();
    } else if (v instanceof Record r) {
      return json(components(r));
    } else if (v instanceof Map<?, ?> m) {
      Map<String, Object> out = new LinkedHashMap<>();
      m.forEach((k, value) -> out.put(String.valueOf(k), json(value)));
      return out;
    } else if (v instanceof Collection<?> c) {
      // Not toList(): a JSON null in a list is a value.
      List<Object> out = new ArrayList<>();
      c.forEach(x -> out.add(json(x)));
      return out;
    }
    return v.toString();
  }
}
