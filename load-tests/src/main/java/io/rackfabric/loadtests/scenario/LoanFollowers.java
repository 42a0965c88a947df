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
 * A {@code gpu-copies} or {@code disk-reads} workload through a loan between two compute hosts of a
 * Ladon rack follows its borrower's link fail-over and the controller's end of its loan: a {@link
 * LoanFollower} beside the borrower's host software, given
 * the loan's windows on each plane as {@link LoanFailover} finds them in the topology (the
 * secondary plane's: every path avoiding the borrower's primary cable).
 */
final class LoanFollowers {

  private static final Duration ASK = Duration.ofSeconds(10);

  private LoanFollowers() {}

  /** The follower of GPU workload {@code w}, or null (copies peer to peer or via RAM follow nothing). */
  static ActorRef<LoanFollower.Command> start(RunningRack rack, GpuCopies w, ActorRef<GpuDriver.Command> driver,
      PrintStream progress) throws Exception {
    if (w.viaRam() != null || w.peer() != null) {
      return null;
    }
    return start(rack, w.driven().get(0), w.driver(), "gpu-copies " + w.name(), LoanFollower.gpu(driver), progress);
  }

  /**
   * The follower of a workload whose driver on {@code borrower} drives {@code device}, started and
   * following its borrower's routes and its loans' ends; null when the workload is no loan between
   * two compute hosts of a rack with fail-over software (nothing to follow).
   *
   * @param workload names the workload in progress lines and the follower's actor name
   */
  static ActorRef<LoanFollower.Command> start(RunningRack rack, String device, String borrower, String workload,
      LoanFollower.Driver driver, PrintStream progress) throws Exception {
    Topology topology = rack.topology();
    GlobalMemorySpec spec = topology.globalMemorySpec();
    if (spec == null || spec.managementHost() == null) {
      return null;
    }
    LoanPlanner planner = new LoanPlanner(topology);
    String lender = planner.lenderOf(device).orElse(null);
    if (lender == null || !spec.computeHosts().contains(borrower) || !spec.computeHosts().contains(lender)
        || lender.equals(borrower)) {
      return null;
    }
    Map<Plane, PlaneWindows> windows;
    try {
      LoanFailover.MovedLoan moved = new LoanFailover(planner).afterLinkDown(device, borrower, borrower, Plane.PRIMARY);
      windows = Map.of(Plane.PRIMARY, new PlaneWindows(0, 0, base(moved.before()), size(moved.before()),
              target(moved.before())),
          Plane.SECONDARY, new PlaneWindows(moved.barShift(0), moved.dmaShift(), base(moved.after()),
              size(moved.after()), target(moved.after())));
    } catch (LoanPlanException e) {
      progress.printf("  %s: the loan does not follow a fail-over: %s%n", workload, e.getMessage());
      return null;
    }
    ActorRef<ComputeHost.Command> host = Asks.find(rack.system(), ComponentKeys.computeHost(borrower), ASK);
    ActorRef<ControlPlaneClient.Command> client = topology.controlPlane() == null ? null
        : Asks.find(rack.system(), ComponentKeys.controlPlaneClient(borrower), ASK);
    ActorRef<LoanFollower.Command> follower = rack.system().systemActorOf(LoanFollower.create(device, borrower,
        spec.computeHosts().indexOf(lender) + 1, windows, host, driver, client),
        "loan-follower-" + workload.replace(' ', '-'), Props.empty());
    // The follower asked the host to follow its routes when it started (answered below); the host
    // has taken that once it answers a later question.
    Asks.<LoanFollower.Command, LoanFollower.Moves>ask(rack.system(), follower, LoanFollower.GetMoves::new, ASK);
    Asks.<ComputeHost.Command, ComputeHost.Routes>ask(rack.system(), host, ComputeHost.GetRoutes::new, ASK);
    if (client != null) { // and the driver has taken the follower of its loans' ends
      Asks.<ControlPlaneClient.Command, ControlPlaneClient.PagesDone>ask(rack.system(), client,
          ControlPlaneClient.GetRequests::new, ASK);
    }
    PlaneWindows s = windows.get(Plane.SECONDARY);
    progress.printf("  %s: the loan of %s follows %s's route changes and the loan's end (secondary plane: registers"
        + " %+,d, DMA window 0x%X)%n", workload, device, borrower, s.registersShift(), s.windowBase());
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
