package io.rackfabric.cluster.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.topology.RouteExplanation.Hop;
import io.rackfabric.cluster.topology.RouteExplanation.Kind;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The Device Lending set-ups (lending-b2b, lending-3way): the paths their header comments promise. */
class LendingTopologiesTest {

  private static final long GIB = 1L << 30;
  private static final long MIB = 1L << 20;

  @ParameterizedTest
  @CsvSource({
      "lending-b2b, lender, 0x10_0000_0100",
      "lending-3way, lender-a, 0x10_0000_0100",
      "lending-3way, lender-b, 0x18_0000_0100"})
  void shouldCrossExactlyOneNtbWhenTheBorrowerWritesALendersRam(String topology, String lender, String address)
      throws TopologyException {
    RouteExplanation r = explain(topology, "borrower", parse(address), false);

    assertEquals(Kind.DELIVERED, r.outcome().kind(), r.toText());
    assertEquals(lender, r.outcome().component());
    assertEquals(GIB + 0x100, r.outcome().address(), "the window maps the lender's [1GiB, 2GiB)");
    assertEquals(1, ntbCrossings(r), r.toText());
  }

  @ParameterizedTest
  @CsvSource({
      "lending-b2b, gpu, 0x2_0000_0040",
      "lending-3way, gpu-a1, 0x2_0000_0040",
      "lending-3way, gpu-b, 0x2_1000_0040"})
  void shouldLandInTheBorrowersRamWhenALentGpuWritesItsDmaWindow(String topology, String gpu, String expected)
      throws TopologyException {
    RouteExplanation r = explain(topology, gpu, 48 * GIB + 0x40, false);

    assertEquals(Kind.DELIVERED, r.outcome().kind(), r.toText());
    assertEquals("borrower", r.outcome().component());
    assertEquals(parse(expected), r.outcome().address());
    assertTrue(r.outcome().barRange().contains(r.outcome().address()), "in the borrower's RAM");
    assertEquals(1, ntbCrossings(r), r.toText());
  }

  @Test
  void shouldReachEveryGpuBarWhenTheBorrowerWritesItsWindows() throws TopologyException {
    assertBar("lending-b2b", "borrower", 80 * GIB + 0x10, "gpu", 0);
    assertBar("lending-b2b", "borrower", 81 * GIB + 0x40, "gpu", 1);
    assertBar("lending-3way", "borrower", 80 * GIB, "gpu-a1", 0);
    assertBar("lending-3way", "borrower", 80 * GIB + MIB, "gpu-a2", 0);
    assertBar("lending-3way", "borrower", 81 * GIB, "gpu-a1", 1);
    assertBar("lending-3way", "borrower", 81 * GIB + 256 * MIB, "gpu-a2", 1);
    assertBar("lending-3way", "borrower", 112 * GIB, "gpu-b", 0);
    assertBar("lending-3way", "borrower", 113 * GIB, "gpu-b", 1);
  }

  @Test
  void shouldReachTheOtherLendersGpusOverTheLendersLink() throws TopologyException {
    assertBar("lending-3way", "lender-a", 56 * GIB, "gpu-b", 0);
    assertBar("lending-3way", "gpu-a1", 57 * GIB + 0x40, "gpu-b", 1);
    assertBar("lending-3way", "lender-b", 56 * GIB + MIB, "gpu-a2", 0);
    assertBar("lending-3way", "gpu-b", 57 * GIB + 256 * MIB, "gpu-a2", 1);
    RouteExplanation r = explain("lending-3way", "gpu-a1", 57 * GIB, false);
    assertEquals(List.of("gpu-a1", "lender-a-sw", "lender-a-pxh", "lender-b-pxh", "lender-b-sw", "gpu-b"),
        r.hops().stream().map(Hop::component).toList(), "not through the borrower");
  }

  @Test
  void shouldStayInTheLenderWhenTheLenderWritesItsOwnGpu() throws TopologyException {
    RouteExplanation r = explain("lending-b2b", "lender", 32 * GIB, false);
    assertEquals("gpu", r.outcome().component());
    assertEquals(List.of("lender", "lender-sw", "gpu"), r.hops().stream().map(Hop::component).toList());
  }

  private static void assertBar(String topology, String from, long address, String device, int bar)
      throws TopologyException {
    RouteExplanation r = explain(topology, from, address, false);
    assertEquals(Kind.DELIVERED, r.outcome().kind(), r.toText());
    assertEquals(device, r.outcome().component(), r.toText());
    assertEquals(bar, r.outcome().bar(), r.toText());
  }

  private static int ntbCrossings(RouteExplanation r) {
    return r.hops().stream().mapToInt(h -> h.translations().size()).sum();
  }

  private static long parse(String hex) {
    return Long.parseLong(hex.replace("_", "").substring(2), 16);
  }

  private static RouteExplanation explain(String topology, String from, long address, boolean read)
      throws TopologyException {
    return new RouteExplainer(TopologyLoader.load(topology)).explain(from, address, read);
  }
}
