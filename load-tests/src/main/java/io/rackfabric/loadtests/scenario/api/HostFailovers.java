package io.rackfabric.loadtests.scenario.api;

import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.cluster.topology.GlobalMemorySpec;
import io.rackfabric.host.compute.ComputeHost;
import io.rackfabric.host.failover.HostLog;
import io.rackfabric.host.management.ManagementHost;
import io.rackfabric.host.management.ManagementHost.FailoverCompleted;
import io.rackfabric.host.memory.Plane;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.loadtests.scenario.api.RunResult.AppliedFault;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the rack's data-plane fail-over software did in a run (Ladon section 5.3), read from its
 * actors while the rack still runs: the notification rounds the MH ended, its log, and each
 * compute host's log and route list. For invariants and figures of racks whose topology names a
 * management host.
 *
 * @param chLogs by CH number (1..N), only the CHs that answered (one stopped or on a killed node is absent)
 * @param routes the plane each CH reaches each target by (index 0: the MH), same keys
 */
public record HostFailovers(String mh, List<FailoverCompleted> rounds, HostLog mhLog, Map<Integer, HostLog> chLogs,
    Map<Integer, List<Plane>> routes) {

  private static final Duration ASK = Duration.ofSeconds(10);

  public HostFailovers {
    rounds = List.copyOf(rounds);
    chLogs = Map.copyOf(chLogs);
    routes = Map.copyOf(routes);
  }

  /**
   * Reads the fail-over software of {@code rack}.
   *
   * @throws IllegalStateException saying why there is none to read: no management host in the
   *     topology, or the MH stopped or on a killed node
   */
  public static HostFailovers read(RunningRack rack) throws Exception {
    GlobalMemorySpec spec = rack.topology().globalMemorySpec();
    if (spec == null || spec.managementHost() == null) {
      throw new IllegalStateException("topology " + rack.topology().name()
          + " names no global-memory.management-host: no fail-over software ran");
    }
    String mhId = spec.managementHost();
    if (!rack.reachable(mhId)) {
      throw new IllegalStateException("the MH " + mhId + " was stopped or its node killed: its rounds are gone");
    }
    var mh = Asks.find(rack.system(), ComponentKeys.managementHost(mhId), ASK);
    List<FailoverCompleted> rounds = Asks.<ManagementHost.Command, ManagementHost.Failovers>ask(rack.system(), mh,
        ManagementHost.GetFailovers::new, ASK).rounds();
    HostLog mhLog = Asks.ask(rack.system(), mh, ManagementHost.GetLog::new, ASK);
    Map<Integer, HostLog> logs = new LinkedHashMap<>();
    Map<Integer, List<Plane>> routes = new LinkedHashMap<>();
    for (int i = 1; i <= spec.computeHosts().size(); i++) {
      String chId = spec.computeHosts().get(i - 1);
      if (!rack.reachable(chId)) {
        continue;
      }
      var ch = Asks.find(rack.system(), ComponentKeys.computeHost(chId), ASK);
      logs.put(i, Asks.ask(rack.system(), ch, ComputeHost.GetLog::new, ASK));
      routes.put(i, Asks.<ComputeHost.Command, ComputeHost.Routes>ask(rack.system(), ch, ComputeHost.GetRoutes::new,
          ASK).planes());
    }
    return new HostFailovers(mhId, rounds, mhLog, logs, routes);
  }

  /**
   * The fail-over software of {@code run}'s rack, while it runs; empty when the topology names no
   * management host, the run has no rack, or the MH was stopped or its node killed.
   */
  public static java.util.Optional<HostFailovers> readIfAny(RunResult run) throws Exception {
    var spec = run.scenario().topology().topology().globalMemorySpec();
    if (run.rack() == null || spec == null || spec.managementHost() == null
        || !run.rack().reachable(spec.managementHost())) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(read(run.rack()));
  }

  /**
   * The rounds that answer fault {@code index} of {@code downs} (model-time faults that took a
   * link down, in time order): those whose verdict came at or after it and before the next one.
   */
  public List<FailoverCompleted> roundsAfter(List<AppliedFault> downs, int index) {
    long from = downs.get(index).modelAt();
    long until = index + 1 < downs.size() ? downs.get(index + 1).modelAt() : Long.MAX_VALUE;
    List<FailoverCompleted> out = new ArrayList<>();
    for (FailoverCompleted r : rounds) {
      if (r.verdictAt() >= from && r.verdictAt() < until) {
        out.add(r);
      }
    }
    return out;
  }

  /** Model-time faults of the run that took a link down and were applied, in time order. */
  public static List<AppliedFault> linkDowns(RunResult run) {
    return run.faults().stream()
        .filter(f -> f.modelAt() >= 0 && f.takesLinkDown() && !f.note().startsWith("FAILED"))
        .sorted((a, b) -> Long.compare(a.modelAt(), b.modelAt()))
        .toList();
  }

  /** How a round is named in figures and verdicts: {@code ch3}, or {@code plane} for a lost plane (host 0). */
  public static String who(FailoverCompleted round) {
    return round.failedHost() == 0 ? "plane" : "ch" + round.failedHost();
  }
}
