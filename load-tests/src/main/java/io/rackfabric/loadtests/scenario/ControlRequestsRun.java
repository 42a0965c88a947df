package io.rackfabric.loadtests.scenario;

import akka.actor.typed.ActorRef;
import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.cluster.node.ControlPlaneClients;
import io.rackfabric.cluster.node.RequesterIdPlan;
import io.rackfabric.loadtests.scenario.language.ControlRequests;
import io.rackfabric.loadtests.scenario.language.Durations;
import io.rackfabric.cluster.topology.ControlPlaneSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.time.TimeKeeper;
import io.rackfabric.host.controlplane.ControlPlaneClient;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.loadtests.scenario.api.ControlPlaneTakeovers;
import io.rackfabric.loadtests.scenario.api.ControlRequestsResult;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.ControllerRules;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A scenario's {@code control-requests} on a running rack: each listed compute host's
 * control-plane driver (started by its node, {@link ControlPlaneClient}) opens pages of its
 * host's IOMMU for the host's requester ID in the management domain, one per interval, stamped
 * from the master's clock at the start; at the end the controller that is master then is asked
 * what it holds, so that "answered" and "applied once" are both checked against the state.
 */
public final class ControlRequestsRun {

  private static final Duration ASK = Duration.ofSeconds(10);
  /** A driver learns the hosts once both answered their status; on a loaded machine that takes a while. */
  private static final Duration READY = Duration.ofMinutes(2);

  private record Series(String host, ControlPlaneClient.PagePlan plan,
      CompletableFuture<ControlPlaneClient.PagesDone> done) {}

  private final RunningRack rack;
  private final List<Series> series;

  private ControlRequestsRun(RunningRack rack, List<Series> series) {
    this.rack = rack;
    this.series = series;
  }

  /** Starts every host's series; returns at once. */
  public static ControlRequestsRun start(RunningRack rack, ControlRequests spec, PrintStream progress) throws Exception {
    Topology topology = rack.topology();
    ControlPlaneSpec pair = topology.controlPlane();
    var master = Asks.find(rack.system(), ComponentKeys.controlPlaneHost(pair.master()), ASK);
    long startAt = Asks.<ControlPlaneHost.Command, ControlPlaneHost.HostStatus>ask(rack.system(), master,
        ControlPlaneHost.GetStatus::new, ASK).modelNow();
    RequesterIdPlan ids = RequesterIdPlan.of(topology);
    // Under the kernel the rack waits while the plans are handed over, no later than their start:
    // each driver's first request then enters the model at its own time (a driver in model time
    // is its endpoint's guest; its wake must be in before the rack moves on). It waits where it
    // stands, not at the plans' start: the master's clock is ahead of the rack from the pairing
    // on (two replication-link latencies, 60 us by default), and a rack held there ran up to it
    // before the scenario's first faults, which then reached components past their time
    // (fm-controller-takeover's link-down at 50 us took effect at 59,053 ns).
    long reached = rack.timeStatus().map(TimeKeeper.Status::reached).orElse(startAt);
    rack.holdModelTime(Math.min(startAt, Math.max(0, reached)));
    List<Series> series = new ArrayList<>();
    for (String host : spec.from()) {
      int requester = ids.idInManagementDomain(host).orElseThrow(() -> new IllegalStateException(
          "compute host " + host + " has no requester ID in the management domain"));
      AddressRange memory = topology.endpoint(host).orElseThrow().bars().get(0);
      // The upper half of the host's memory: clear of what the scenario's traffic and the NIC use.
      long first = (memory.base() + memory.size() / 2) & -ControllerRules.PAGE;
      if (first + (long) spec.count() * ControllerRules.PAGE > memory.base() + memory.size()) {
        throw new IllegalStateException(host + "'s memory holds fewer than " + spec.count() + " pages above "
            + Long.toHexString(first));
      }
      var plan = new ControlPlaneClient.PagePlan(host, requester, first, spec.count(), startAt, spec.intervalNs());
      var client = Asks.find(rack.system(), ComponentKeys.controlPlaneClient(host), ASK);
      Asks.<ControlPlaneClient.Command, ControlPlaneClient.PagesDone>ask(rack.system(), client,
          ControlPlaneClient.AwaitReady::new, READY);
      series.add(new Series(host, plan, Asks.<ControlPlaneClient.Command, ControlPlaneClient.PagesDone>askAsync(
          rack.system(), client, r -> new ControlPlaneClient.OpenPages(plan, r), Duration.ofDays(1))));
      // Answered after the plan was taken: its first wake is at the endpoint before the confirm.
      Asks.<ControlPlaneClient.Command, ControlPlaneClient.PagesDone>ask(rack.system(), client,
          ControlPlaneClient.GetRequests::new, ASK);
      rack.confirmInputs(List.of(host));
      progress.printf("  control-requests: %s's driver opens %,d IOMMU pages, one every %s%n", host, spec.count(),
          Durations.text(spec.intervalNs()));
    }
    return new ControlRequestsRun(rack, series);
  }

  /** Waits for every series (at most {@code timeout}), then reads the master's controller. */
  public List<ControlRequestsResult> finish(Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<List<ControlPlaneClient.RequestRecord>> records = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    for (Series s : series) {
      try {
        records.add(s.done().get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS).requests());
        errors.add("");
      } catch (TimeoutException e) {
        var client = Asks.find(rack.system(), ComponentKeys.controlPlaneClient(s.host()), ASK);
        records.add(Asks.<ControlPlaneClient.Command, ControlPlaneClient.PagesDone>ask(rack.system(), client,
            ControlPlaneClient.GetRequests::new, ASK).requests());
        errors.add("not every request was answered within the run's wall limit");
      }
    }
    // The controller of whichever host is master now: the backup after a take-over.
    String master = ControlPlaneTakeovers.read(rack).hosts().stream()
        .filter(h -> h.status().role() == ControlPlaneHost.Role.MASTER).map(h -> h.status().host())
        .findFirst().orElse("");
    Controller.CurrentState state = null;
    if (!master.isEmpty()) {
      var ref = Asks.find(rack.system(), ComponentKeys.controlPlaneHost(master), ASK);
      state = Asks.<ControlPlaneHost.Command, Controller.CurrentState>ask(rack.system(), ref,
          ControlPlaneHost.GetControllerState::new, ASK);
    }
    List<ControlRequestsResult> out = new ArrayList<>();
    for (int i = 0; i < series.size(); i++) {
      Series s = series.get(i);
      String error = !errors.get(i).isEmpty() ? errors.get(i)
          : state == null ? "no management host is master at the end of the run" : "";
      out.add(new ControlRequestsResult(s.host(), s.plan().count(), records.get(i),
          state == null ? -1 : pagesOpen(state, s.plan()),
          state == null ? -1 : state.state().lastRequest(ControlPlaneClients.clientId(s.host())), master, error));
    }
    return out;
  }

  /** The plan's pages open in the controller now. */
  private static long pagesOpen(Controller.CurrentState state, ControlPlaneClient.PagePlan plan) {
    long open = 0;
    for (int i = 0; i < plan.count(); i++) {
      if (state.state().permission(plan.host(), plan.requester(), plan.firstPage() + i * ControllerRules.PAGE)
          .isPresent()) {
        open++;
      }
    }
    return open;
  }
}
