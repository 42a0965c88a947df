package io.rackfabric.cluster.scenario;

/**
 * Command-line overrides of a scenario file's values, applied before it is checked (so that
 * {@code --mode single-jvm} on a file with a kill-node fault is reported like the file saying so).
 *
 * @param mode replaces {@code mode}, or null
 * @param seed replaces {@code seed}, or null
 * @param transport replaces {@code multi-jvm.transport}, or null
 */
public record ScenarioOptions(Mode mode, Long seed, String transport) {

  public static final ScenarioOptions NONE = new ScenarioOptions(null, null, null);
}
