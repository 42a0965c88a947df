package io.rackfabric.loadtests.scenario.language;

import io.rackfabric.cluster.topology.Fields;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A scenario's {@code run { duration, wall-limit, settle, link-timers, reproducible }}: how long the
 * run goes on in model and wall time, how long a quiet rack must stay quiet, the links' wall-time
 * timers, and whether the run is asked to be reproducible. The model end also depends on the
 * traffic, so the {@link RunLength} is made once that is read.
 *
 * @param duration run.duration in model nanoseconds, null when not given
 * @param linkTimers run.link-timers as settings paths and values
 */
record RunSection(boolean reproducible, Map<String, String> linkTimers, Long duration, long wallLimit, long settle) {

  static final long DEFAULT_WALL_LIMIT_NS = 600_000_000_000L;
  /** In one JVM nothing pauses for long; across JVMs a killed node is learnt from cluster membership. */
  static final long DEFAULT_SETTLE_SINGLE_NS = 500_000_000L;
  static final long DEFAULT_SETTLE_MULTI_NS = 3_000_000_000L;
  /** The fabric's defaults (rackfabric.fabric.link-timers), for the check between the two. */
  private static final long DEFAULT_KEEPALIVE_NS = 100_000_000L;
  private static final long DEFAULT_DLLP_TIMEOUT_NS = 1_500_000_000L;

  /** Reads {@code run} of the scenario {@code f}; the defaults where it or a key is not given. */
  static RunSection parse(Fields f, Mode mode) {
    Fields run = f.object("run", false);
    if (run != null) {
      run.allowOnly("duration", "wall-limit", "settle", "link-timers", "reproducible");
    }
    Boolean asked = run == null ? null : run.bool("reproducible", true);
    boolean reproducible = asked == null || asked;
    Map<String, String> linkTimers = linkTimers(run == null ? null : run.object("link-timers", false));
    Long duration = run == null ? null : run.durationNs("duration", null);
    long wallLimit = positive(run, "wall-limit", DEFAULT_WALL_LIMIT_NS);
    long settle = positive(run, "settle", mode == Mode.SINGLE_JVM ? DEFAULT_SETTLE_SINGLE_NS : DEFAULT_SETTLE_MULTI_NS);
    return new RunSection(reproducible, linkTimers, duration, wallLimit, settle);
  }

  /** The run's length once its model end (its duration, or the end of the traffic) is known. */
  RunLength length(long modelEnd) {
    return new RunLength(duration == null ? -1 : duration, modelEnd, wallLimit, settle, linkTimers);
  }

  /**
   * {@code run.link-timers { keepalive, dllp-timeout, init-retry, init-timeout, retry-interval }}:
   * wall-time link timers for every JVM of the run, as settings paths ({@code retry-interval} is
   * also the model time a link waits to retrain after a replay rollover under the kernel). A rack of thousands of
   * links spends its cores on keepalives and ticks at the defaults (issue 6's 1,000-host run).
   */
  private static Map<String, String> linkTimers(Fields t) {
    Map<String, String> settings = new LinkedHashMap<>();
    if (t == null) {
      return settings;
    }
    List<String> keys = List.of("keepalive", "dllp-timeout", "init-retry", "init-timeout", "retry-interval");
    t.allowOnly(keys.toArray(String[]::new));
    Map<String, Long> values = new HashMap<>();
    for (String key : keys) {
      if (t.has(key)) {
        long v = positive(t, key, -1);
        if (v > 0) {
          values.put(key, v);
          settings.put("rackfabric.fabric.link-timers." + key, Durations.text(v));
        }
      }
    }
    long keepalive = values.getOrDefault("keepalive", DEFAULT_KEEPALIVE_NS);
    long timeout = values.getOrDefault("dllp-timeout", DEFAULT_DLLP_TIMEOUT_NS);
    if (timeout < 2 * keepalive) {
      t.error(values.containsKey("dllp-timeout") ? "dllp-timeout" : "keepalive", "dllp-timeout="
          + Durations.text(timeout) + " must be at least twice keepalive=" + Durations.text(keepalive));
    }
    return settings;
  }

  /** A duration above 0 at {@code key} of {@code f}, or {@code dflt} when not given (or after a problem). */
  static long positive(Fields f, String key, long dflt) {
    if (f == null) {
      return dflt;
    }
    Long v = f.durationNs(key, dflt);
    if (v == null) {
      return dflt;
    }
    if (v == 0) {
      f.error(key, key + "=0 must be above 0");
      return dflt;
    }
    return v;
  }
}
