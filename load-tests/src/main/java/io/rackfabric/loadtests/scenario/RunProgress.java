package io.rackfabric.loadtests.scenario;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How far a run has come, as its runner learns it: the model time the rack is known to have
 * reached and what was measured so far. Written by the runner's thread, read by an interruption's
 * (a JVM shutdown hook), hence the atomics and the lock.
 */
public final class RunProgress {

  private final AtomicLong modelReachedNs = new AtomicLong(-1);
  private final Map<String, Object> measured = new LinkedHashMap<>();

  /** The rack has run up to {@code modelNs}: every event before it is done. Keeps the highest. */
  public void reached(long modelNs) {
    modelReachedNs.accumulateAndGet(modelNs, Math::max);
  }

  /** The model time reached, -1 before the model began or when the run does not say. */
  public long modelReachedNs() {
    return modelReachedNs.get();
  }

  /** Records (or replaces) a figure measured so far, under a result file's key. */
  public synchronized void measured(String key, Object value) {
    measured.put(key, value);
  }

  /** What was measured so far, in the order first recorded. */
  public synchronized Map<String, Object> measured() {
    return new LinkedHashMap<>(measured);
  }
}
