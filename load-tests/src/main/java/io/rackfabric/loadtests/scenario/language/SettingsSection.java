package io.rackfabric.loadtests.scenario.language;

import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.rackfabric.cluster.topology.Fields;
import io.rackfabric.cluster.topology.Problems;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Checks a scenario's {@code settings { rackfabric.... = ... }} block together with the {@code
 * rack run --set KEY=VALUE} flags ({@link ScenarioOptions#settings}), which win over the block:
 * each key must be a {@code rackfabric.*} key of a module's reference.conf, and the values must
 * build the modules' settings records ({@link ScenarioSettings}). A key of the block is reported at
 * its line, a flag's as {@code --set}; both by the setting's own key (the block's path would make
 * it longer than a message shows whole).
 */
final class SettingsSection {

  static final String KEY = "settings";
  private static final String FLAG = "--set";

  private SettingsSection() {}

  /**
   * The settings in the order given (the flags' after the block's), or an empty map after a
   * problem (reported).
   *
   * @param elsewhere keys the scenario sets by other means (its {@code run.link-timers}), each with
   *     the scenario key that sets it: giving one here too is refused
   */
  static Map<String, String> parse(Fields scenario, Map<String, String> flags, Map<String, String> elsewhere,
      Problems problems) {
    int before = problems.size();
    Map<String, String> settings = new LinkedHashMap<>();
    Map<String, ConfigOrigin> origins = new HashMap<>();
    Fields f = scenario.object(KEY, false);
    if (f != null) {
      List<Map.Entry<String, ConfigValue>> entries = new ArrayList<>(
          ((ConfigObject) scenario.raw(KEY)).toConfig().entrySet());
      entries.sort(Comparator.comparingInt((Map.Entry<String, ConfigValue> e) -> e.getValue().origin().lineNumber())
          .thenComparing(Map.Entry::getKey));
      for (Map.Entry<String, ConfigValue> e : entries) {
        String key = e.getKey();
        ConfigValue v = e.getValue();
        Optional<String> problem = problem(key, elsewhere);
        if (problem.isEmpty() && (v.valueType() == ConfigValueType.LIST || v.valueType() == ConfigValueType.OBJECT)) {
          problem = Optional.of("expected one value such as 50ms, 256 or on, got " + Fields.describe(v));
        }
        problem.ifPresent(p -> problems.add(v.origin(), key, p));
        settings.put(key, String.valueOf(v.unwrapped()));
        origins.put(key, v.origin());
      }
    }
    flags.forEach((key, value) -> {
      problem(key, elsewhere).ifPresent(p -> problems.add(FLAG, -1, key, p));
      settings.remove(key);
      settings.put(key, value);
      origins.remove(key);
    });
    if (problems.size() != before) {
      return Map.of();
    }
    ScenarioSettings.valueProblem(settings).ifPresent(p -> {
      ConfigOrigin origin = origins.get(p.key());
      if (origin == null) {
        problems.add(FLAG, -1, p.key(), p.text());
      } else {
        problems.add(origin, p.key(), p.text());
      }
    });
    return problems.size() == before ? settings : Map.of();
  }

  private static Optional<String> problem(String key, Map<String, String> elsewhere) {
    String other = elsewhere.get(key);
    if (other != null) {
      return Optional.of("also set by " + other + " of this scenario; give it in one place");
    }
    return ScenarioSettings.keyProblem(key);
  }
}
