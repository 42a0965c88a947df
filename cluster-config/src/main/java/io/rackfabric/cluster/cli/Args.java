package io.rackfabric.cluster.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Strict parsing of {@code --flag value} and {@code --switch} arguments: an unknown flag, a
 * missing value or a malformed number is a {@link UsageException} naming it.
 */
public final class Args {

  private final Map<String, String> values = new HashMap<>();
  /** Every value of each flag, in order: for a flag that may be repeated ({@code --set A=1 --set B=2}). */
  private final Map<String, List<String>> every = new HashMap<>();
  private final List<String> positional = new ArrayList<>();

  /**
   * @param valued flags that take a value
   * @param switches flags that take none
   */
  public static Args parse(List<String> args, Set<String> valued, Set<String> switches) throws UsageException {
    Args a = new Args();
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (arg.startsWith("--")) {
        String name = arg.substring(2);
        String inline = null;
        int eq = name.indexOf('=');
        if (eq >= 0) {
          inline = name.substring(eq + 1);
          name = name.substring(0, eq);
        }
        if (valued.contains(name)) {
          if (inline == null) {
            if (i + 1 >= args.size()) {
              throw new UsageException("--" + name + " needs a value");
            }
            inline = args.get(++i);
          }
          a.values.put(name, inline);
          a.every.computeIfAbsent(name, k -> new ArrayList<>()).add(inline);
        } else if (switches.contains(name) && inline == null) {
          a.values.put(name, "true");
        } else {
          List<String> known = new ArrayList<>();
          valued.forEach(v -> known.add("--" + v + " X"));
          switches.forEach(s -> known.add("--" + s));
          known.sort(null);
          throw new UsageException("unknown flag '" + arg + "' (known: " + String.join(", ", known) + ")");
        }
      } else {
        a.positional.add(arg);
      }
    }
    return a;
  }

  public String get(String name, String fallback) {
    return values.getOrDefault(name, fallback);
  }

  /** Every value given to a repeatable flag, in order; empty when not given. */
  public List<String> all(String name) {
    return every.getOrDefault(name, List.of());
  }

  public String require(String name) throws UsageException {
    String v = values.get(name);
    if (v == null) {
      throw new UsageException("--" + name + " is required");
    }
    return v;
  }

  public boolean has(String name) {
    return values.containsKey(name);
  }

  public long getLong(String name, long fallback, long min, long max) throws UsageException {
    String v = values.get(name);
    if (v == null) {
      return fallback;
    }
    try {
      long n = Long.parseLong(v.replace("_", ""));
      if (n < min || n > max) {
        throw new UsageException("--" + name + "=" + v + " not in [" + min + "," + max + "]");
      }
      return n;
    } catch (NumberFormatException e) {
      throw new UsageException("--" + name + "=" + v + " is not a whole number");
    }
  }

  /** A size or address flag ("32GiB", "0x1_0000_0000"), or {@code fallback} when absent. */
  public long getSize(String name, long fallback) throws UsageException {
    String v = values.get(name);
    if (v == null) {
      return fallback;
    }
    try {
      return io.rackfabric.fabric.address.Addresses.parse(v);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--" + name + ": " + e.getMessage());
    }
  }

  public List<String> positional() {
    return positional;
  }
}
