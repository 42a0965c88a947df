package io.rackfabric.loadtests.scenario.language;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.node.ClusterSettings;
import io.rackfabric.cluster.topology.KeyHints;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.host.controlplane.ClientSettings;
import io.rackfabric.host.controlplane.ControlPlaneSettings;
import io.rackfabric.host.device.disk.DiskSettings;
import io.rackfabric.host.device.gpu.GpuSettings;
import io.rackfabric.host.ftgm.FtgmSettings;
import io.rackfabric.host.messaging.MessagingSettings;
import io.rackfabric.host.nic.NicSettings;
import io.rackfabric.host.settings.HostSettings;
import io.rackfabric.persistence.PersistenceSettings;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Settings a run takes over the modules' {@code reference.conf}: a scenario's {@code settings { ...
 * }} block and {@code rack run --set KEY=VALUE}. Only existing {@code rackfabric.*} keys are taken
 * (Akka's own are the project's to choose), and a value is judged the way the module that reads it
 * judges it: by building every module's settings record from the merged configuration, so a run
 * is refused before anything starts rather than failing in an actor. The command line and the
 * scenario parser both call this class.
 */
public final class ScenarioSettings {

  public static final String PREFIX = "rackfabric.";

  /** Keys a run sets itself from elsewhere, and where a user gives them instead. */
  private static final Map<String, String> ELSEWHERE = Map.of(
      "rackfabric.cluster.transport", "multi-jvm.transport or rack run --transport",
      "rackfabric.cluster.tls", "rack run --tls-dir (a scenario never names the rack's keys)",
      "rackfabric.cluster.aeron-dir", "multi-jvm.shared-media-driver",
      "rackfabric.persistence.data-dir", "the run's folder, rack run --run-dir");

  /** The settings records the modules read once; building one checks its whole section. */
  private static final List<Function<Config, ?>> RECORDS = List.of(FabricSettings::create, HostSettings::create,
      ControlPlaneSettings::create, ClientSettings::create, MessagingSettings::create, NicSettings::create,
      FtgmSettings::create, PersistenceSettings::create, ClusterSettings::create, GpuSettings::create,
      DiskSettings::create);

  private static final int MAX_DISTANCE = 4;

  private ScenarioSettings() {}

  /**
   * A value refused by a module's settings record, and the record's reason.
   *
   * @param keys the key whose value is refused last; before it, the settings given before it when
   *     only the combination is refused (a keepalive of one setting against the timeout of another)
   */
  public record ValueProblem(List<String> keys, String reason) {

    /** The key the problem is reported at: the one that completes it. */
    public String key() {
      return keys.get(keys.size() - 1);
    }

    /** The reason, after the earlier keys when only the combination is refused. */
    public String text() {
      return keys.size() == 1 ? reason
          : "together with " + String.join(", ", keys.subList(0, keys.size() - 1)) + ": " + reason;
    }
  }

  /**
   * {@code --set KEY=VALUE} flags, in the order given (a key given twice keeps the later value).
   *
   * @throws IllegalArgumentException naming the flag without {@code =} or with an empty key
   */
  public static Map<String, String> parseFlags(List<String> flags) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String flag : flags) {
      int eq = flag.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("--set " + flag + " is not KEY=VALUE (e.g. --set"
            + " rackfabric.host.controlplane.heartbeat-interval=50ms)");
      }
      out.remove(flag.substring(0, eq).trim());
      out.put(flag.substring(0, eq).trim(), flag.substring(eq + 1).trim());
    }
    return out;
  }

  /**
   * What is wrong with a key, or empty when it is one a run may set: outside {@code rackfabric.},
   * not a key of a {@code reference.conf} (with the closest one), a section rather than a value,
   * or one the run sets from elsewhere.
   */
  public static Optional<String> keyProblem(String key) {
    if (!key.startsWith(PREFIX)) {
      return Optional.of("not a rackfabric.* setting; only those can be set here (Akka's and the others' are"
          + " the project's own choice)");
    }
    for (Map.Entry<String, String> e : ELSEWHERE.entrySet()) {
      if (key.equals(e.getKey()) || key.startsWith(e.getKey() + ".")) {
        return Optional.of("set by the run itself; give it as " + e.getValue());
      }
    }
    Set<String> known = knownKeys();
    if (known.contains(key)) {
      return Optional.empty();
    }
    List<String> under = known.stream().filter(k -> k.startsWith(key + ".")).toList();
    if (!under.isEmpty()) {
      return Optional.of("a section, not a value: set its keys (" + Names.hint(under) + ")");
    }
    return Optional.of("unknown setting" + closest(key, known).map(k -> " (did you mean " + k + "?)")
        .orElse("") + "; the rackfabric.* keys are listed with their defaults in each module's reference.conf");
  }

  /**
   * The first value a module's settings record refuses, or empty when every record builds. Each
   * setting is tried alone first, so that the problem names the key that causes it; then the
   * settings together, one more at a time, for rules that tie keys (dllp-timeout at least twice
   * keepalive): the problem names the key that completes the refusal and the ones before it.
   */
  public static Optional<ValueProblem> valueProblem(Map<String, String> settings) {
    Config base = ConfigFactory.load();
    for (Map.Entry<String, String> e : settings.entrySet()) {
      Optional<String> reason = refusal(over(Map.of(e.getKey(), e.getValue()), base));
      if (reason.isPresent()) {
        return Optional.of(new ValueProblem(List.of(e.getKey()), reason.get()));
      }
    }
    Map<String, String> first = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : settings.entrySet()) {
      first.put(e.getKey(), e.getValue());
      Optional<String> reason = first.size() == 1 ? Optional.empty() : refusal(over(first, base));
      if (reason.isPresent()) {
        return Optional.of(new ValueProblem(List.copyOf(first.keySet()), reason.get()));
      }
    }
    return Optional.empty();
  }

  /** The configuration a run's JVM reads: the settings over {@code base}. */
  public static Config over(Map<String, String> settings, Config base) {
    return ConfigFactory.parseMap(settings, "scenario settings").withFallback(base);
  }

  /** The settings over this JVM's configuration ({@code ConfigFactory.load()}). */
  public static Config config(Map<String, String> settings) {
    return over(settings, ConfigFactory.load());
  }

  private static Optional<String> refusal(Config config) {
    for (Function<Config, ?> record : RECORDS) {
      try {
        record.apply(config);
      } catch (ConfigException e) {
        String origin = e.origin() == null ? null : e.origin().description() + ": ";
        String message = e.getMessage();
        return Optional.of(origin != null && message.startsWith(origin) ? message.substring(origin.length()) : message);
      } catch (IllegalArgumentException e) {
        return Optional.of(e.getMessage());
      }
    }
    return Optional.empty();
  }

  /** Every rackfabric.* value key of the reference.conf files on the class path. */
  static Set<String> knownKeys() {
    Set<String> keys = new TreeSet<>();
    ConfigFactory.defaultReference().getConfig("rackfabric").entrySet()
        .forEach(e -> keys.add(PREFIX + e.getKey()));
    return keys;
  }

  /** The known key nearest to a mistyped one: same last part first, else the fewest edits. */
  private static Optional<String> closest(String key, Set<String> known) {
    String last = key.substring(key.lastIndexOf('.') + 1);
    List<String> sameName = known.stream().filter(k -> k.endsWith("." + last)).toList();
    if (!sameName.isEmpty()) {
      return Optional.of(String.join(" or ", sameName));
    }
    List<String> near = new ArrayList<>(known);
    near.sort(Comparator.comparingInt(k -> KeyHints.distance(key, k)));
    return near.isEmpty() || KeyHints.distance(key, near.get(0)) > MAX_DISTANCE ? Optional.empty()
        : Optional.of(near.get(0));
  }
}
