package io.rackfabric.cluster.lending;

import io.rackfabric.cluster.lending.LoanPlanner.LoanPlan;
import io.rackfabric.cluster.node.HostWiring;
import io.rackfabric.cluster.node.HostWiring.PlanePort;
import io.rackfabric.cluster.topology.GlobalMemorySpec;
import io.rackfabric.cluster.topology.LinkSpec;
import io.rackfabric.cluster.topology.RouteExplanation;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.host.memory.Plane;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a loan's windows go when a link on its paths fails (Device Lending across a Ladon rack,
 * whose link fail-over is Ladon section 5.3, Table 2): the loan re-planned ({@link LoanPlanner})
 * with every path avoiding the failed link, so the borrower's BAR windows toward the lender, the
 * device's DMA window into the borrower and the MSI path in it (the MSI is a write into the
 * borrower's RAM through the DMA window) move to the other plane's NTB mapping. Which addresses
 * they get follows from the topology's NTB translations and routing, as {@code rack lend}'s do.
 *
 * <p>Pure: one topology in, plans out; no actor.
 */
public final class LoanFailover {

  /** A link of the topology by its two ends, each "component.port". */
  public record Link(String a, String b) {

    /** Whether {@code hop} enters or leaves by either end of this link. */
    boolean crossedBy(RouteExplanation.Hop hop) {
      return at(a, hop) || at(b, hop);
    }

    private static boolean at(String end, RouteExplanation.Hop hop) {
      int dot = end.indexOf('.');
      if (dot < 0) {
        return end.equals(hop.component()); // an endpoint's end: its one link
      }
      String component = end.substring(0, dot);
      String port = end.substring(dot + 1);
      return component.equals(hop.component()) && (port.equals(hop.in()) || port.equals(hop.out()));
    }

    @Override
    public String toString() {
      return a + " <-> " + b;
    }
  }

  /**
   * A loan's windows before and after a fail-over away from {@code failed}: each BAR's address on
   * the borrower's side and the DMA window's on the device's side, as shifts the borrower's driver
   * applies to the addresses it programs.
   */
  public record MovedLoan(LoanPlan before, LoanPlan after, Link failed) {

    /** How far BAR {@code index}'s window moved on the borrower's side (after minus before). */
    public long barShift(int index) {
      return after.bars().get(index).borrowerSide() - before.bars().get(index).borrowerSide();
    }

    /** How far the DMA window (and the MSI path in it) moved on the device's side. */
    public long dmaShift() {
      return after.window().deviceSide() - before.window().deviceSide();
    }
  }

  private final LoanPlanner planner;

  public LoanFailover(LoanPlanner planner) {
    this.planner = planner;
  }

  /**
   * The loan of {@code device} to {@code borrower} as planned, and re-planned with every path
   * avoiding {@code failed}.
   *
   * @throws LoanPlanException when the topology carries no such loan, or none without the link
   *     (naming it)
   */
  public MovedLoan avoiding(String device, String borrower, Link failed) {
    LoanPlan before = planner.plan(device, borrower);
    LoanPlan after;
    try {
      after = planner.plan(device, borrower, r -> r.hops().stream().noneMatch(failed::crossedBy));
    } catch (LoanPlanException e) {
      throw new LoanPlanException("no path of device=" + device + "'s loan to borrower=" + borrower
          + " avoids the failed link " + failed + ": " + e.getMessage());
    }
    return new MovedLoan(before, after, failed);
  }

  /**
   * The loan re-planned for the failure of {@code host}'s link on {@code plane} (a Ladon compute
   * host's cable to that plane's NTB chip): the borrower's own, or the lender's.
   *
   * @throws LoanPlanException when the topology has no Ladon global memory, {@code host} is not
   *     one of its compute hosts, or no path avoids the link
   */
  public MovedLoan afterLinkDown(String device, String borrower, String host, Plane plane) {
    return avoiding(device, borrower, hostLink(planner.topology(), host, plane));
  }

  /**
   * The link of compute host {@code host} on {@code plane}: the one on its root port toward that
   * plane ({@link HostWiring#rootPortsOf}).
   *
   * @throws LoanPlanException naming what the topology lacks
   */
  public static Link hostLink(Topology topology, String host, Plane plane) {
    GlobalMemorySpec spec = topology.globalMemorySpec();
    if (spec == null || !spec.computeHosts().contains(host)) {
      throw new LoanPlanException("host=" + host + " is not a compute host of topology " + topology.name()
          + "'s global-memory: it has no plane links to fail over");
    }
    List<String> ends = new ArrayList<>();
    for (PlanePort p : HostWiring.rootPortsOf(topology, host, spec.layout())) {
      if (p.plane() == plane) {
        ends.add(p.switchId() + "." + p.port().name());
      }
    }
    for (LinkSpec l : topology.links()) {
      for (String end : ends) {
        if (l.touches(end)) {
          return end.equals(l.a()) ? new Link(l.a(), l.b()) : new Link(l.b(), l.a());
        }
      }
    }
    throw new LoanPlanException("host=" + host + " has no link on its " + plane + " root port in topology "
        + topology.name());
  }
}
