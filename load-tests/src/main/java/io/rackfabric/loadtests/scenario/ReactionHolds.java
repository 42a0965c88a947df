package io.rackfabric.loadtests.scenario;

import io.rackfabric.loadtests.scenario.language.Durations;
import io.rackfabric.cluster.topology.LinkSpec;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.stats.PortStats;
import io.rackfabric.host.settings.HostSettings;
import java.util.List;
import java.util.Map;

/**
 * Holds the rack's link ends at a model time so that what a fault causes happens in model order
 * rather than wall order: at the next model-time fault that stamps the rack (until it is applied),
 * and, with host software on the rack, at the earliest time a host can react to a link going down
 * until every AER message it raised has reached its root.
 */
final class ReactionHolds {

  private final RunContext run;
  private final FaultSteps faults;

  ReactionHolds(RunContext run, FaultSteps faults) {
    this.run = run;
    this.faults = faults;
  }

  /**
   * Holds every link end at the first model-time fault after {@code modelAt} that stamps the
   * rack, or lifts the hold after the last. Until a fault at T is applied, nothing stamped T or
   * later crosses a link: host software and the fabric run ahead of the runner in wall time, and
   * a TLP that crossed the failing link early would carry its ends' clocks past T, delaying what
   * the fault causes. A fault that stamps nothing (a switchover) gets no hold.
   */
  void holdAfter(long modelAt) throws Exception {
    List<Long> stamped = run.scenario.faults().stream()
        .filter(f -> f.at().isModel() && run.catalog.fault(f.kind()).orElseThrow().stampsModelTime())
        .flatMap(f -> f.steps().stream()).filter(t -> t > modelAt).sorted().toList();
    if (stamped.isEmpty() && modelAt < 0) {
      return; // nothing to hold for: every link end starts without a horizon
    }
    run.rack.holdFrom(stamped.isEmpty() ? Long.MAX_VALUE : stamped.get(0));
  }

  /**
   * With host software on the rack, after faults at {@code cut} that took a link down: holds the
   * rack at the earliest time a host's software can act on them (the AER interrupt latency
   * after the fault) until every AER message the faults raised has reached its root, so that
   * each host's AER driver runs before any host's reaction (a failure report, a notification)
   * moves. Otherwise the MH could take a CH's report before its own AER of a whole lost plane,
   * in wall order. "Quiet" would not do here: the MH's retransmission runs on the wall clock.
   */
  void holdForReactions(long cut, Map<String, PortStats> portsBefore, Map<String, EndpointStats> endpointsBefore)
      throws Exception {
    var spec = run.scenario.topology().topology().globalMemorySpec();
    boolean linkDown = faults.tookLinkDownAt(cut);
    if (spec == null || spec.managementHost() == null || !linkDown || run.timedOut()) {
      return;
    }
    long reactions = cut + HostSettings.create(run.rack.system().settings().config()).aerInterruptLatencyNs();
    boolean nextFaultFirst = run.scenario.modelFaultTimes().stream().anyMatch(t -> t > cut && t <= reactions);
    if (reactions == cut || nextFaultFirst) {
      return; // the next fault's own hold comes first
    }
    run.rack.holdFrom(reactions);
    long deadline = System.nanoTime() + run.scenario.run().settleNs();
    while (aerArrived(endpointsBefore) < aerRaised(portsBefore, endpointsBefore)) {
      if (System.nanoTime() > deadline) {
        run.notes.add("not every AER raised at " + Durations.text(cut) + " reached a root within run.settle; the"
            + " hosts' reactions to that fault went on in wall order");
        return;
      }
      Thread.sleep(QuietWait.POLL_MS); // polling counters: an AER's arrival answers nobody
    }
  }

  /**
   * AER records due at roots since the snapshots: one per AER message a reachable switch port
   * raised, one per link-down of a root endpoint's own link (it records that itself).
   */
  private long aerRaised(Map<String, PortStats> ports, Map<String, EndpointStats> endpoints) throws Exception {
    LiveRack rack = run.rack;
    long raised = 0;
    for (Map.Entry<String, PortStats> e : ports.entrySet()) {
      if (rack.reachable(LinkSpec.componentOf(e.getKey()))) {
        raised += rack.portStats(e.getKey()).aerSent() - e.getValue().aerSent();
      }
    }
    for (var ep : rack.topology().endpoints()) {
      EndpointStats before = endpoints.get(ep.id());
      if (ep.root() && before != null && rack.reachable(ep.id())) {
        raised += rack.endpointStats(ep.id()).link().linkDowns() - before.link().linkDowns();
      }
    }
    return raised;
  }

  /** AER records root endpoints received since {@code before}. */
  private long aerArrived(Map<String, EndpointStats> before) throws Exception {
    long arrived = 0;
    for (Map.Entry<String, EndpointStats> e : before.entrySet()) {
      if (run.rack.reachable(e.getKey())) {
        arrived += run.rack.endpointStats(e.getKey()).aerReceived().size() - e.getValue().aerReceived().size();
      }
    }
    return arrived;
  }
}
