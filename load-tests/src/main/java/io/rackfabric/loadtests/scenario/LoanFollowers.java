package io.rackfabric.loadtests.scenario;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Props;
import io.rackfabric.cluster.lending.LoanFailover;
import io.rackfabric.cluster.lending.LoanPlanException;
import io.rackfabric.cluster.lending.LoanPlanner;
import io.rackfabric.cluster.lending.LoanPlanner.DmaWindow;
import io.rackfabric.cluster.lending.LoanPlanner.LoanPlan;
import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.cluster.topology.GlobalMemorySpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.host.compute.ComputeHost;
import io.rackfabric.host.controlplane.ControlPlaneClient;
import io.rackfabric.host.device.gpu.GpuDriver;
import io.rackfabric.host.lending.LoanFollower;
import io.rackfabric.host.lending.LoanFollower.PlaneWindows;
import io.rackfabric.host.memory.Plane;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import io.rackfabric.loadtests.scenario.language.GpuCopies;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A {@code gpu-copies} workload through a loan between two compute hosts of a Ladon rack follows
 * its borrower's link fail-over: a {@link LoanFollower} beside the borrower's host software, given
 * the loan's windows on each plane as {@link LoanFailover} finds them in the topology (the
 * secondary plane's: every path avoiding the borrower's primary cable).
 */
final class LoanFollowers {

  private static final Duration ASK = Duration.ofSeconds(10);

  private LoanFollowers() {}

  /**
   * The follower of workload {@code w}, started and following its borrower's routes; null when the
   * workload is no loan between two compute hosts of a rack with fail-over software (nothing to follow).
   */
  static ActorRef<LoanFollower.Command> start(RunningRack rack, GpuCopies w, ActorRef<GpuDriver.Command> driver,
      PrintStream progress) throws Exception {
    Topology topology = rack.topology();
    GlobalMemorySpec spec = topology.globalMemorySpec();
    if (spec == null || spec.managementHost() == null || w.viaRam() != null || w.peer() != null) {
      return null;
    }
    LoanPlanner planner = new LoanPlanner(topology);
    String gpu = w.driven().get(0);
    String lender = planner.lenderOf(gpu).orElse(null);
    int borrower = spec.computeHosts().indexOf(w.driver());
    if (lender == null || borrower < 0 || !spec.computeHosts().contains(lender) || lender.equals(w.driver())) {
      return null;
    }
    Map<Plane, PlaneWindows> windows;
    try {
      LoanFailover.MovedLoan moved = new LoanFailover(planner).afterLinkDown(gpu, w.driver(), w.driver(), Plane.PRIMARY);
      windows = Map.of(Plane.PRIMARY, new PlaneWindows(0, 0, base(moved.before()), size(moved.before()),
              target(moved.before())),
          Plane.SECONDARY, new PlaneWindows(moved.barShift(0), moved.dmaShift(), base(moved.after()),
              size(moved.after()), target(moved.after())));
    } catch (LoanPlanException e) {
      progress.printf("  gpu-copies %s: the loan does not follow a fail-over: %s%n", w.name(), e.getMessage());
      return null;
    }
    ActorRef<ComputeHost.Command> host = Asks.find(rack.system(), ComponentKeys.computeHost(w.driver()), ASK);
    ActorRef<ControlPlaneClient.Command> client = topology.controlPlane() == null ? null
        : Asks.find(rack.system(), ComponentKeys.controlPlaneClient(w.driver()), ASK);
    ActorRef<LoanFollower.Command> follower = rack.system().systemActorOf(LoanFollower.create(gpu, w.driver(),
        spec.computeHosts().indexOf(lender) + 1, windows, host, driver, client), "loan-follower-" + w.name(),
        Props.empty());
    // The follower asked the host to follow its routes when it started (answered below); the host
    // has taken that once it answers a later question.
    Asks.<LoanFollower.Command, LoanFollower.Moves>ask(rack.system(), follower, LoanFollower.GetMoves::new, ASK);
    Asks.<ComputeHost.Command, ComputeHost.Routes>ask(rack.system(), host, ComputeHost.GetRoutes::new, ASK);
    if (client != null) { // and the driver has taken the follower of its loans' ends
      Asks.<ControlPlaneClient.Command, ControlPlaneClient.PagesDone>ask(rack.system(), client,
          ControlPlaneClient.GetRequests::new, ASK);
    }
    PlaneWindows s = windows.get(Plane.SECONDARY);
    progress.printf("  gpu-copies %s: the loan of %s follows %s's fail-over (secondary plane: registers %+,d, DMA"
        + " window 0x%X)%n", w.name(), gpu, w.driver(), s.registersShift(), s.windowBase());
    return follower;
  }

  /** The follower's moves so far and the loan's end (none without a follower). */
  static LoanFollower.Moves followed(RunningRack rack, ActorRef<LoanFollower.Command> follower)
      throws Exception {
    if (follower == null) {
      return new LoanFollower.Moves("", "", List.of(), null);
    }
    return Asks.<LoanFollower.Command, LoanFollower.Moves>ask(rack.system(), follower, LoanFollower.GetMoves::new,
        ASK);
  }

  private static long base(LoanPlan p) {
    return p.window().deviceSide();
  }

  private static long size(LoanPlan p) {
    return p.window().size();
  }

  private static long target(LoanPlan p) {
    DmaWindow w = p.window();
    return w.borrowerSide();
  }
}
