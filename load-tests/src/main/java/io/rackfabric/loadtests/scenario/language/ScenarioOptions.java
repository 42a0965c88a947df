package io.rackfabric.loadtests.scenario.language;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Command-line overrides of a scenario file's values, applied before it is checked (so that
 * {@code --mode single-jvm} on a file with a kill-node fault is reported like the file saying so).
 *
 * @param mode replaces {@code mode}, or null
 * @param seed replaces {@code seed}, or null
 * @param transport replaces {@code multi-jvm.transport}, or null
 * @param faultRates the chance per fault kind that each fault of it happens ({@link FaultRates});
 *     kinds not named keep every fault
 * @param tlsDir with transport tls-tcp: the rack's keys folder ({@code --tls-dir}), or null for the
 *     stores in the settings; never taken from a scenario file, whose runs go from machine to machine
 * @param settings {@code --set KEY=VALUE}: rackfabric.* settings over the scenario's {@code settings}
 *     block, in the order given ({@link ScenarioSettings})
 */
public record ScenarioOptions(Mode mode, Long seed, String transport, Map<String, Double> faultRates,
    String tlsDir, Map<String, String> settings) {

  public static final ScenarioOptions NONE = new ScenarioOptions(null, null, null);

  public ScenarioOptions {
    faultRates = faultRates == null ? Map.of() : Map.copyOf(new TreeMap<>(faultRates));
    settings = settings == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(settings));
  }

  public ScenarioOptions(Mode mode, Long seed, String transport, Map<String, Double> faultRates, String tlsDir) {
    this(mode, seed, transport, faultRates, tlsDir, Map.of());
  }

  public ScenarioOptions(Mode mode, Long seed, String transport) {
    this(mode, seed, transport, Map.of());
  }

  public ScenarioOptions(Mode mode, Long seed, String transport, Map<String, Double> faultRates) {
    this(mode, seed, transport, faultRates, null);
  }
}
