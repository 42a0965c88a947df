package io.rackfabric.fabric.time;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The books' side of node restarts: which components left and are expected back at what model
 * time, how much had been sent to each name by then (its predecessor's share), and the counts of
 * the incarnations a restart replaced.
 */
final class Restarts {

  /** What a component expected back joins with. */
  record Return(long at, long inflowBefore) {}

  /** Members that left and are expected back, with the model time each restarts at. */
  private final Map<String, Long> expected = new TreeMap<>();
  /** What had been sent to each member expected back when it was: its predecessor's share. */
  private final Map<String, Long> inflowWhenExpected = new HashMap<>();
  /** Stragglers of incarnations that were replaced by a restart. */
  private long pastStragglers;
  /** The latest model time an incarnation replaced by a restart had handled an event at. */
  private long pastReached;

  /**
   * Why the members named in {@code back} cannot come back at model time {@code at}, or null: each
   * must have joined and left, and handled no event after {@code at}, nor may the rack have
   * ({@code reached}: the latest model time any component handled an event at).
   */
  static String refusal(Collection<String> back, long at, Map<String, SyncMember> members, long reached) {
    for (String name : back) {
      SyncMember m = members.get(name);
      if (m == null) {
        return "no component named " + name + " ever joined, so none can come back";
      }
      if (m.running) {
        return "the component named " + name + " is still running: only one that left comes back";
      }
      if (at < m.now) {
        return name + " cannot come back at " + at + " ns: it had handled an event at " + m.now + " ns";
      }
    }
    if (at < reached) {
      return "the rack has reached " + reached + " ns already: nothing comes back earlier, at " + at + " ns";
    }
    return null;
  }

  void expect(String name, long at, long inflowSoFar) {
    expected.put(name, at);
    inflowWhenExpected.put(name, inflowSoFar);
  }

  /** The model time {@code name} is expected back at, or null when it is not. */
  Long expectedAt(String name) {
    return expected.get(name);
  }

  /** {@code name} joins again, replacing {@code before}: what it starts from. */
  Return rejoined(String name, long beforeStragglers, long beforeNow) {
    pastStragglers += beforeStragglers;
    pastReached = Math.max(pastReached, beforeNow);
    return new Return(expected.remove(name), inflowWhenExpected.remove(name));
  }

  /** {@code hold}, or earlier: nothing at or after the restart of a member not back yet. */
  long holdBefore(long hold) {
    long h = hold;
    for (long at : expected.values()) {
      h = Math.min(h, at);
    }
    return h;
  }

  boolean noneAwaited() {
    return expected.isEmpty();
  }

  /** Members expected back that have not joined yet, by name. */
  List<String> awaited() {
    return List.copyOf(expected.keySet());
  }

  long pastStragglers() {
    return pastStragglers;
  }

  long pastReached() {
    return pastReached;
  }
}
