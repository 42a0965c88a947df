package io.rackfabric.loadtests.scenario;

import io.rackfabric.loadtests.scenario.language.TrafficSpec;
import io.rackfabric.fabric.stats.EndpointStats;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Waits until a running rack is quiet, for a run without the model-time kernel (and at a run's
 * end, where host software may tick on for ever): nothing in the rack answers "quiet", so this
 * polls the endpoints' counters until every request sent has arrived or nothing has moved for
 * run.settle.
 */
final class QuietWait {

  /** How often the counters are read. */
  static final long POLL_MS = 100;

  private final RunContext run;
  private final TrafficTally tally;
  private final Map<String, EndpointStats> atStart;
  private final ProgressLines lines;

  /** @param atStart the endpoints' statistics when the traffic began; filled before the first wait */
  QuietWait(RunContext run, TrafficTally tally, Map<String, EndpointStats> atStart, ProgressLines lines) {
    this.run = run;
    this.tally = tally;
    this.atStart = atStart;
    this.lines = lines;
  }

  /**
   * Waits until the rack is quiet: every write sent has arrived (when {@code byCompletion}), or
   * no counter has moved for run.settle.
   */
  void awaitQuiet(boolean byCompletion) throws Exception {
    long lastChange = System.nanoTime();
    long lastMetric = -1;
    while (true) {
      long now = System.nanoTime();
      if (run.pastDeadline(now)) {
        return;
      }
      if (byCompletion && complete()) {
        return;
      }
      long metric = activity();
      if (metric != lastMetric) {
        lastMetric = metric;
        lastChange = now;
      } else if (now - lastChange > run.scenario.run().settleNs()) {
        return;
      }
      lines.progress();
      Thread.sleep(POLL_MS); // polling counters of a running rack: nothing here answers on "quiet"
    }
  }

  /** Every write sent so far arrived; every read sent was answered. */
  private boolean complete() throws Exception {
    LiveRack rack = run.rack;
    Map<String, Long> expected = new LinkedHashMap<>();
    for (TrafficSpec g : run.scenario.traffic()) {
      if (g.writes()) {
        expected.merge(g.sink(), tally.of(g.name()).sent, Long::sum);
      } else if (rack.reachable(g.from())) {
        EndpointStats s = rack.endpointStats(g.from());
        if (s.readsCompleted() + s.readsFailed() < s.readsSent()) {
          return false;
        }
      }
    }
    for (Map.Entry<String, Long> e : expected.entrySet()) {
      EndpointStats start = atStart.get(e.getKey());
      if (!rack.reachable(e.getKey()) || start == null) {
        return false;
      }
      if (rack.endpointStats(e.getKey()).uniqueWrites() - start.uniqueWrites() < e.getValue()) {
        return false;
      }
    }
    return true;
  }

  /** A number that changes whenever anything moves in the rack's endpoints. */
  long activity() {
    long sum = 0;
    for (String id : atStart.keySet()) {
      if (!run.rack.reachable(id)) {
        continue;
      }
      try {
        EndpointStats s = run.rack.endpointStats(id);
        sum += s.writesReceived() + s.writesSent() + s.readsSent() + s.readsCompleted() + s.readsFailed()
            + s.readsServed() + s.aerReceived().size() + s.link().lostOnLinkDown() + s.link().droppedLinkDown()
            + s.link().tlpsReceived();
      } catch (Exception e) {
        sum += 1; // no answer (its JVM just died): that is a change too
      }
    }
    return sum;
  }
}
