package io.rackfabric.loadtests.scenario;

import io.rackfabric.loadtests.scenario.language.TrafficSpec;
import io.rackfabric.loadtests.scenario.api.RunResult.TrafficResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What each traffic generator of a run has done so far, summed over the stretches its jobs ran
 * in: the counts a {@link TrafficResult} reports and that the waits for quiet compare the sinks'
 * arrivals with. The runner thread's only.
 */
final class TrafficTally {

  /** One generator's counts (see {@link TrafficResult}). */
  static final class Tally {
    long sent;
    long failed;
    long skipped;
    boolean stalled;
    long rerouted;
  }

  private final List<TrafficSpec> traffic;
  private final Map<String, Tally> tally = new LinkedHashMap<>();

  TrafficTally(List<TrafficSpec> traffic) {
    this.traffic = traffic;
    traffic.forEach(t -> tally.put(t.name(), new Tally()));
  }

  /** The named generator's counts, to add to. */
  Tally of(String generator) {
    return tally.get(generator);
  }

  /** Per generator, what it has sent so far. */
  Map<String, Long> sentSoFar() {
    Map<String, Long> sent = new LinkedHashMap<>();
    tally.forEach((name, t) -> sent.put(name, t.sent));
    return sent;
  }

  /** Requests sent so far by every generator together. */
  long totalSent() {
    return tally.values().stream().mapToLong(t -> t.sent).sum();
  }

  List<TrafficResult> results() {
    List<TrafficResult> out = new ArrayList<>();
    for (TrafficSpec g : traffic) {
      Tally t = tally.get(g.name());
      out.add(new TrafficResult(g, t.sent, t.failed, t.skipped, t.stalled, t.rerouted));
    }
    return out;
  }
}
