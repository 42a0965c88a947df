package io.rackfabric.cluster.lending;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.lending.LoanFailover.Link;
import io.rackfabric.cluster.lending.LoanFailover.MovedLoan;
import io.rackfabric.cluster.topology.RouteExplainer;
import io.rackfabric.cluster.topology.RouteExplanation;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyLoader;
import io.rackfabric.host.memory.Plane;
import org.junit.jupiter.api.Test;

class LoanFailoverTest {

  private static final long GIB = 1L << 30;
  private static final long TIB = 1L << 40;

  @Test
  void shouldFindAComputeHostsLinkOnEachPlaneWhenTheTopologyIsALadonRack() throws Exception {
    Topology ladon = TopologyLoader.load("ladon-lending");
    assertEquals(new Link("ch2-rp.pri", "nt-pri.ch2"), LoanFailover.hostLink(ladon, "ch2", Plane.PRIMARY));
    assertEquals(new Link("ch2-rp.sec", "nt-sec.ch2"), LoanFailover.hostLink(ladon, "ch2", Plane.SECONDARY));
    assertEquals(new Link("ch1-rp.pri", "nt-pri.ch1"), LoanFailover.hostLink(ladon, "ch1", Plane.PRIMARY));
  }

  @Test
  void shouldMoveEveryWindowToTheSecondaryPlaneWhenTheBorrowersPrimaryLinkFails() throws Exception {
    Topology ladon = TopologyLoader.load("ladon-lending");
    MovedLoan m = new LoanFailover(new LoanPlanner(ladon)).afterLinkDown("gpu1", "ch2", "ch2", Plane.PRIMARY);
    // Before: PMS1 (CH1's subspace at 64 GiB for ch2; ch2's RAM at 96 GiB for gpu1). After: the
    // same through PMS2, the global memory's second copy at pms2-base (1 TiB) up.
    assertEquals(72 * GIB, m.before().bars().get(0).borrowerSide());
    assertEquals(TIB + 72 * GIB, m.after().bars().get(0).borrowerSide());
    assertEquals(TIB + 73 * GIB, m.after().bars().get(1).borrowerSide());
    assertEquals(new LoanPlanner.DmaWindow(TIB + 96 * GIB, 8 * GIB, 0), m.after().window());
    assertEquals(TIB, m.barShift(0));
    assertEquals(TIB, m.barShift(1));
    assertEquals(TIB, m.dmaShift());
    // Every new path really avoids the failed cable: the route explainer's hops cross none of its ends.
    RouteExplainer routes = new RouteExplainer(ladon);
    for (RouteExplanation r : new RouteExplanation[] {
        routes.explain("ch2", m.after().bars().get(0).borrowerSide(), false),
        routes.explain("ch2", m.after().bars().get(1).borrowerSide(), false),
        routes.explain("gpu1", m.after().window().deviceSide() + 0x1000, false)}) {
      assertTrue(r.delivered(), r.toText());
      assertFalse(r.hops().stream().anyMatch(m.failed()::crossedBy), r.toText());
    }
    // The old DMA path does cross it: that is why the window moves.
    assertTrue(routes.explain("gpu1", m.before().window().deviceSide(), false).hops().stream()
        .anyMatch(m.failed()::crossedBy));
  }

  @Test
  void shouldFollowTheTopologysPms2BaseNotAConstant() throws Exception {
    // The lender's secondary cable carries none of the loan's paths: nothing moves. Its primary
    // cable does: everything moves by the distance between the two planes' views, the layout's.
    Topology ladon = TopologyLoader.load("ladon-lending");
    MovedLoan m = new LoanFailover(new LoanPlanner(ladon)).afterLinkDown("gpu1", "ch2", "ch1", Plane.SECONDARY);
    assertEquals(0, m.dmaShift(), "nothing crossed CH1's secondary cable");
    assertEquals(0, m.barShift(0));
    MovedLoan lender = new LoanFailover(new LoanPlanner(ladon)).afterLinkDown("gpu1", "ch2", "ch1", Plane.PRIMARY);
    long pms2 = ladon.globalMemorySpec().layout().chView(Plane.SECONDARY).base()
        - ladon.globalMemorySpec().layout().chView(Plane.PRIMARY).base();
    assertEquals(pms2, lender.dmaShift());
    assertEquals(pms2, lender.barShift(0));
  }

  @Test
  void shouldRefuseNamingTheLinkWhenNoPathAvoidsIt() throws Exception {
    Topology ladon = TopologyLoader.load("ladon-lending");
    LoanFailover failover = new LoanFailover(new LoanPlanner(ladon));
    // The GPU's own slot link: every path to it crosses it.
    LoanPlanException e = assertThrows(LoanPlanException.class,
        () -> failover.avoiding("gpu1", "ch2", new Link("ch1-rp.gpu", "gpu1")));
    assertTrue(e.getMessage().contains("avoids the failed link ch1-rp.gpu <-> gpu1"), e.getMessage());
    LoanPlanException notCh = assertThrows(LoanPlanException.class,
        () -> LoanFailover.hostLink(ladon, "mmh", Plane.PRIMARY));
    assertTrue(notCh.getMessage().contains("host=mmh is not a compute host"), notCh.getMessage());
    LoanPlanException noRack = assertThrows(LoanPlanException.class,
        () -> LoanFailover.hostLink(TopologyLoader.load("lending-b2b"), "borrower", Plane.PRIMARY));
    assertTrue(noRack.getMessage().contains("host=borrower is not a compute host"), noRack.getMessage());
  }
}
