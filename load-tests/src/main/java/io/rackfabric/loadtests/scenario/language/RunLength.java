package io.rackfabric.loadtests.scenario.language;

import java.util.Map;

/**
 * How long a run lasts.
 *
 * @param durationNs the model-time length as written ({@code run.duration}), or -1 when absent
 * @param modelEndNs the end of the run in model time: the duration, or without one the stamp
 *     after the last request of the traffic; model-time faults must come before it
 * @param wallLimitNs the wall-time cap from traffic start; wall-time faults must come before it
 * @param settleNs wall time without any counter moving after which a run (or the part of it
 *     before a fault) counts as quiet: what is still in flight then is counted lost
 */
public record RunLength(long durationNs, long modelEndNs, long wallLimitNs, long settleNs,
    Map<String, String> settings) {

  public RunLength {
    settings = Map.copyOf(settings);
  }

  /** A run with the fabric's default link timers. */
  public RunLength(long durationNs, long modelEndNs, long wallLimitNs, long settleNs) {
    this(durationNs, modelEndNs, wallLimitNs, settleNs, Map.of());
  }

  public boolean hasDuration() {
    return durationNs >= 0;
  }
}
