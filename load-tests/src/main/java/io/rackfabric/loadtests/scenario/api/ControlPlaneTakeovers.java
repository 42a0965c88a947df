package io.rackfabric.loadtests.scenario.api;

import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.cluster.topology.ControlPlaneSpec;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.host.controlplane.SwitchoverBreakdown;
import io.rackfabric.host.controlplane.TakeoverBreakdown;
import io.rackfabric.loadtests.harness.Asks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What the management hosts' control plane did in a run, read from the hosts that still answer:
 * each one's role now, the take-overs it made (Table 1 of Ladon per take-over) and the managed
 * switchovers it handed over in; and the take-overs of hosts whose node was killed since, read as
 * the harness killed it ({@link RunningRack#takeoversOfKilledHosts}).
 *
 * @param hosts each reachable host of the pair, master first
 * @param ofKilledHosts the take-overs made by hosts whose node was killed after them
 */
public record ControlPlaneTakeovers(ControlPlaneSpec pair, List<Host> hosts, List<TakeoverBreakdown> ofKilledHosts) {

  private static final Duration ASK = Duration.ofSeconds(10);

  /** One management host as it answered at the end of the run. */
  public record Host(ControlPlaneHost.HostStatus status, List<TakeoverBreakdown> takeovers,
      List<SwitchoverBreakdown> switchovers) {

    public Host {
      takeovers = List.copyOf(takeovers);
      switchovers = List.copyOf(switchovers);
    }
  }

  public ControlPlaneTakeovers {
    hosts = List.copyOf(hosts);
    ofKilledHosts = List.copyOf(ofKilledHosts);
  }

  /**
   * Reads the pair of {@code rack}.
   *
   * @throws IllegalStateException when the topology names no pair
   */
  public static ControlPlaneTakeovers read(RunningRack rack) throws Exception {
    ControlPlaneSpec pair = rack.topology().controlPlane();
    if (pair == null) {
      throw new IllegalStateException("topology " + rack.topology().name()
          + " has no control-plane section: no management-host pair ran");
    }
    List<Host> hosts = new ArrayList<>();
    for (String id : List.of(pair.master(), pair.backup())) {
      if (!rack.reachable(id)) {
        continue;
      }
      var ref = Asks.find(rack.system(), ComponentKeys.controlPlaneHost(id), ASK);
      ControlPlaneHost.HostStatus status = Asks.ask(rack.system(), ref, ControlPlaneHost.GetStatus::new, ASK);
      ControlPlaneHost.Takeovers made = Asks.<ControlPlaneHost.Command, ControlPlaneHost.Takeovers>ask(
          rack.system(), ref, ControlPlaneHost.GetTakeovers::new, ASK);
      hosts.add(new Host(status, made.takeovers(), made.switchovers()));
    }
    return new ControlPlaneTakeovers(pair, hosts, rack.takeoversOfKilledHosts());
  }

  /** Each host's role and last sequence number, and why it is fenced if it is: "mmh BACKUP at seqNr 9, ...". */
  public String roles() {
    return hosts.stream().map(h -> h.status().host() + " " + h.status().role() + " at seqNr " + h.status().lastSeqNr()
        + (h.status().detail().isEmpty() ? "" : " (" + h.status().detail() + ")")).collect(Collectors.joining(", "));
  }

  /** Every managed switchover of the run, in the model-time order they were asked (then host order). */
  public List<SwitchoverBreakdown> switchovers() {
    return hosts.stream().flatMap(h -> h.switchovers().stream())
        .sorted(java.util.Comparator.comparingLong(SwitchoverBreakdown::requestedAt)).toList();
  }

  /** Every take-over any host made, also one whose node was killed since, in the model-time order of the suspicions. */
  public List<TakeoverBreakdown> takeovers() {
    return java.util.stream.Stream.concat(ofKilledHosts.stream(), hosts.stream().flatMap(h -> h.takeovers().stream()))
        .sorted(java.util.Comparator.comparingLong(TakeoverBreakdown::suspectedAt)).toList();
  }
}
