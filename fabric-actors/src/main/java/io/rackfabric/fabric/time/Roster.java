package io.rackfabric.fabric.time;

import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The components the keeper's books ({@link SyncBook}) hold, each the incarnation of its name
 * that joined last, found by name and by graph index, and what the running ones add up to: the
 * earliest pending event, the latest model time reached, the stragglers.
 *
 * <p>Not thread-safe: one owner, the books.
 */
final class Roster {

  private final Map<String, SyncMember> byName = new HashMap<>();
  /** Members by graph index (null where the graph names a component that has not joined). */
  private SyncMember[] byIndex = new SyncMember[0];

  /** The member of that name (running or left), or null when none ever joined. */
  SyncMember get(String name) {
    return byName.get(name);
  }

  /** The member at graph index {@code index}, or null when none joined there. */
  SyncMember at(int index) {
    return index < byIndex.length ? byIndex[index] : null;
  }

  /** {@code m} joins under {@code name} (replacing an incarnation that left), at its graph index. */
  void put(String name, SyncMember m) {
    byName.put(name, m);
    if (byIndex.length <= m.index) {
      byIndex = Arrays.copyOf(byIndex, Math.max(m.index + 1, 2 * byIndex.length));
    }
    byIndex[m.index] = m;
  }

  /** Every member by name, read-only. */
  Map<String, SyncMember> byName() {
    return Collections.unmodifiableMap(byName);
  }

  /** Whether every name in {@code expected} has joined (and may have left since). */
  boolean joinedAll(Collection<String> expected) {
    for (String id : expected) {
      if (!byName.containsKey(id)) {
        return false;
      }
    }
    return true;
  }

  /** How many members run. */
  int running() {
    int n = 0;
    for (SyncMember m : byName.values()) {
      if (m.running) {
        n++;
      }
    }
    return n;
  }

  /** The earliest pending event that is not background, {@code Long.MAX_VALUE} when none. */
  long earliestBusy() {
    return earliestOfRunning(m -> m.nextBusy);
  }

  /** The earliest pending event, background or not, {@code Long.MAX_VALUE} when none. */
  long earliest() {
    return earliestOfRunning(m -> m.next);
  }

  /** The least {@code time} of the running components, {@code Long.MAX_VALUE} when none runs. */
  private long earliestOfRunning(ToLongFunction<SyncMember> time) {
    long min = Long.MAX_VALUE;
    for (SyncMember m : byName.values()) {
      if (m.running) {
        min = Math.min(min, time.applyAsLong(m));
      }
    }
    return min;
  }

  /**
   * The latest model time any member (running or not) reported handling an event at, at least
   * {@code past} (what incarnations replaced by a restart had reached) and 0.
   */
  long reached(long past) {
    long max = Math.max(0, past);
    for (SyncMember m : byName.values()) {
      max = Math.max(max, m.now);
    }
    return max;
  }

  /** The members' stragglers, plus {@code past} (those of incarnations replaced by a restart). */
  long stragglers(long past) {
    long s = past;
    for (SyncMember m : byName.values()) {
      s += m.stragglers;
    }
    return s;
  }
}
