package io.rackfabric.cluster.topology;

import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.address.Addresses;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Typed, error-collecting access to one HOCON object of a topology file. Every getter reports a
 * problem against the value's own line and full key ({@code rack.switches[0].ports[2].number}) and
 * returns null instead of throwing, so that parsing goes on and finds the other problems too.
 */
public final class Fields {

  private final ConfigObject object;
  private final String path;
  private final Problems problems;

  public Fields(ConfigObject object, String path, Problems problems) {
    this.object = object;
    this.path = path;
    this.problems = problems;
  }

  /** Where this object's problems go. */
  Problems problems() {
    return problems;
  }

  public String path() {
    return path;
  }

  public String key(String name) {
    return path + "." + name;
  }

  public ConfigOrigin origin() {
    return object.origin();
  }

  public ConfigOrigin origin(String name) {
    ConfigValue v = object.get(name);
    return v == null ? object.origin() : v.origin();
  }

  /** The value of a key as HOCON has it, or null when absent. */
  public ConfigValue raw(String name) {
    return object.get(name);
  }

  /** The keys of this object (HOCON keeps no order of them). */
  public Set<String> keys() {
    return object.keySet();
  }

  public boolean has(String name) {
    ConfigValue v = object.get(name);
    return v != null && v.valueType() != ConfigValueType.NULL;
  }

  /** Reports a problem against this object as a whole. */
  public void error(String reason) {
    problems.add(object.origin(), path, reason);
  }

  /** Reports a problem against one key of this object (its line if present). */
  public void error(String name, String reason) {
    problems.add(origin(name), key(name), reason);
  }

  /** Rejects keys not in {@code allowed}, naming the allowed ones and the likely intended one. */
  public void allowOnly(String... allowed) {
    Set<String> ok = new LinkedHashSet<>(Arrays.asList(allowed));
    for (String k : object.keySet()) {
      if (!ok.contains(k)) {
        String guess = KeyHints.closest(k, ok);
        problems.add(object.get(k).origin(), key(k),
            "unknown key" + (guess == null ? "" : " (did you mean '" + guess + "'?)")
                + "; allowed here: " + String.join(", ", ok));
      }
    }
  }

  /** Rejects keys that exist in the format but make no sense in this object's kind. */
  public void forbid(String why, String... names) {
    for (String n : names) {
      if (object.containsKey(n)) {
        error(n, "not allowed " + why);
      }
    }
  }

  private ConfigValue required(String name) {
    ConfigValue v = object.get(name);
    if (v == null || v.valueType() == ConfigValueType.NULL) {
      problems.add(object.origin(), key(name), "missing (required)");
      return null;
    }
    return v;
  }

  /** A string (numbers are accepted as their text: {@code node = 1} means node "1"). */
  public String string(String name, boolean isRequired) {
    ConfigValue v = isRequired ? required(name) : object.get(name);
    if (v == null || v.valueType() == ConfigValueType.NULL) {
      return null;
    }
    if (v.valueType() == ConfigValueType.STRING || v.valueType() == ConfigValueType.NUMBER) {
      String s = String.valueOf(v.unwrapped()).trim();
      if (s.isEmpty()) {
        error(name, "is empty");
        return null;
      }
      return s;
    }
    error(name, "expected a string, got " + describe(v));
    return null;
  }

  /** An integer, or {@code dflt} when absent (null dflt: required). */
  public Integer integer(String name, Integer dflt) {
    ConfigValue v = dflt == null ? required(name) : object.get(name);
    if (v == null || v.valueType() == ConfigValueType.NULL) {
      return dflt;
    }
    return integerValue(v, key(name));
  }

  /**
   * An integer in [{@code min}, {@code max}], or {@code dflt} when absent (null dflt: required).
   * A whole number out of range, however large, is reported with the range rather than as "not
   * an integer": {@code count=1000000000000 not in [1,2147483647]}.
   */
  public Integer integerIn(String name, Integer dflt, int min, int max) {
    ConfigValue v = dflt == null ? required(name) : object.get(name);
    if (v == null || v.valueType() == ConfigValueType.NULL) {
      return dflt;
    }
    String text = v.valueType() == ConfigValueType.NUMBER ? v.render()
        : v.valueType() == ConfigValueType.STRING ? ((String) v.unwrapped()).trim() : null;
    BigDecimal number = null;
    if (text != null) {
      try {
        number = new BigDecimal(text);
      } catch (NumberFormatException e) {
        // not a number at all: said below
      }
    }
    if (number == null || number.stripTrailingZeros().scale() > 0) {
      error(name, "expected an integer, got " + describe(v));
      return null;
    }
    if (number.compareTo(BigDecimal.valueOf(min)) < 0 || number.compareTo(BigDecimal.valueOf(max)) > 0) {
      error(name, name + "=" + text + " not in [" + min + "," + max + "]");
      return null;
    }
    return number.intValueExact();
  }

  public Integer integerValue(ConfigValue v, String fullKey) {
    Object raw = v.unwrapped();
    if (raw instanceof Integer i) {
      return i;
    }
    if (v.valueType() == ConfigValueType.STRING) {
      try {
        return Integer.parseInt(((String) raw).trim());
      } catch (NumberFormatException e) {
        // fall through to the message below
      }
    }
    problems.add(v.origin(), fullKey, "expected an integer, got " + describe(v));
    return null;
  }

  public Boolean bool(String name, boolean dflt) {
    ConfigValue v = object.get(name);
    if (v == null || v.valueType() == ConfigValueType.NULL) {
      return dflt;
    }
    if (v.valueType() == ConfigValueType.BOOLEAN) {
      return (Boolean) v.unwrapped();
    }
    if (v.valueType() == ConfigValueType.STRING) {
      String s = ((String) v.unwrapped()).trim().toLowerCase(Locale.ROOT);
      if (s.equals("true") || s.equals("yes") || s.equals("on")) {
        return true;
      }
      if (s.equals("false") || s.equals("no") || s.equals("off")) {
        return false;
      }
    }
    error(name, "expected true or false, got " + describe(v));
    return null;
  }

  /** An address or size: a string for {@link Addresses#parse} ("0x90000", "64KiB") or an integer. */
  public Long address(String name, boolean isRequired) {
    ConfigValue v = isRequired ? required(name) : object.get(name);
    if (v == null || v.valueType() == ConfigValueType.NULL) {
      return null;
    }
    return addressValue(v, key(name));
  }

  public Long addressValue(ConfigValue v, String fullKey) {
    Object raw = v.unwrapped();
    String text;
    if (raw instanceof Integer || raw instanceof Long) {
      text = raw.toString();
    } else if (v.valueType() == ConfigValueType.STRING) {
      text = (String) raw;
    } else {
      problems.add(v.origin(), fullKey,
          "expected an address or size such as \"0x90000\" or \"64KiB\", got " + describe(v));
      return null;
    }
    try {
      return Addresses.parse(text);
    } catch (IllegalArgumentException e) {
      problems.add(v.origin(), fullKey, e.getMessage());
      return null;
    }
  }

  /**
   * A duration with a unit ("5ns", "1.5us"), in nanoseconds. A bare number is refused: HOCON
   * would read it as milliseconds, a million times what anyone writing cable delays means.
   */
  public Long durationNs(String name, Long dflt) {
    ConfigValue v = object.get(name);
    if (v == null || v.valueType() == ConfigValueType.NULL) {
      return dflt;
    }
    if (v.valueType() == ConfigValueType.NUMBER) {
      error(name, name + "=" + v.unwrapped() + " needs a unit, e.g. " + v.unwrapped() + "ns");
      return null;
    }
    if (v.valueType() != ConfigValueType.STRING) {
      error(name, "expected a duration such as 5ns, got " + describe(v));
      return null;
    }
    try {
      Duration d = v.atKey("d").getDuration("d");
      if (d.isNegative()) {
        error(name, name + "=" + v.unwrapped() + " is negative");
        return null;
      }
      return d.toNanos();
    } catch (ConfigException | ArithmeticException e) {
      error(name, name + "=" + v.unwrapped() + " is not a duration (use ns, us, ms or s)");
      return null;
    }
  }

  /** A list, or an empty list when absent and not required; null after a problem. */
  public ConfigList list(String name, boolean isRequired) {
    ConfigValue v = isRequired ? required(name) : object.get(name);
    if (v == null || v.valueType() == ConfigValueType.NULL) {
      return isRequired ? null : emptyListLike();
    }
    if (v.valueType() != ConfigValueType.LIST) {
      error(name, "expected a list [ ... ], got " + describe(v));
      return null;
    }
    return (ConfigList) v;
  }

  private static ConfigList emptyListLike() {
    return com.typesafe.config.ConfigValueFactory.fromIterable(List.of());
  }

  /** The objects of a list of objects, each with its indexed key; non-objects are reported. */
  public List<Fields> objects(String name, boolean isRequired) {
    return objects(list(name, isRequired), name);
  }

  /** As {@link #objects(String, boolean)} for a list already fetched (null: nothing). */
  public List<Fields> objects(ConfigList list, String name) {
    List<Fields> out = new ArrayList<>();
    if (list == null) {
      return out;
    }
    for (int i = 0; i < list.size(); i++) {
      ConfigValue item = list.get(i);
      String itemKey = key(name) + "[" + i + "]";
      if (item.valueType() == ConfigValueType.OBJECT) {
        out.add(new Fields((ConfigObject) item, itemKey, problems));
      } else {
        problems.add(item.origin(), itemKey, "expected an object { ... }, got " + describe(item));
      }
    }
    return out;
  }

  /** A nested object, or null when absent (and reported when required or of the wrong type). */
  public Fields object(String name, boolean isRequired) {
    ConfigValue v = isRequired ? required(name) : object.get(name);
    if (v == null || v.valueType() == ConfigValueType.NULL) {
      return null;
    }
    if (v.valueType() != ConfigValueType.OBJECT) {
      error(name, "expected an object { ... }, got " + describe(v));
      return null;
    }
    return new Fields((ConfigObject) v, key(name), problems);
  }

  /**
   * An address range written {@code ["0x90000", "0xEFFFF"]} (base and inclusive limit, as a
   * bridge's base/limit registers hold them) or {@code { base = ..., size = ... }} or
   * {@code { base = ..., limit = ... }} ({@link AddressRangeField}).
   */
  public AddressRange range(String name, boolean isRequired) {
    ConfigValue v = isRequired ? required(name) : object.get(name);
    if (v == null || v.valueType() == ConfigValueType.NULL) {
      return null;
    }
    return AddressRangeField.of(this, name, v);
  }

  /** This object's {@code base} with either {@code size} or {@code limit}, as a range. */
  public AddressRange baseSizeOrLimit() {
    return AddressRangeField.baseSizeOrLimit(this);
  }

  public static String describe(ConfigValue v) {
    return switch (v.valueType()) {
      case OBJECT -> "an object";
      case LIST -> "a list";
      case NULL -> "null";
      case STRING -> "\"" + v.unwrapped() + "\"";
      default -> String.valueOf(v.unwrapped());
    };
  }
}
