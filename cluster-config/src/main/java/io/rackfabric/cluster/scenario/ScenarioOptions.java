package io.rackfabric.cluster.scenario;

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
 */
public record ScenarioOptions(Mode mode, Long seed, String transport, Map<String, Double> faultRates,
    String tlsDir) {

  public static final ScenarioOptions NONE = new ScenarioOptions(null, null, null);

  public ScenarioOptions {
    faultRates = faultRates == null ? Map.of() : Map.copyOf(new TreeMap<>(faultRates));
  }

  public ScenarioOptions(Mode mode, Long seed, String transport) {
    this(mode, seed, transport, Map.of());
  }

  public ScenarioOptions(Mode mode, Long seed, String transport, Map<String, Double> faultRates) {
    this(mode, seed, transport, faultRates, null);
  }
}
