package io.rackfabric.cluster.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.topology.RouteExplanation.Hop;
import io.rackfabric.cluster.topology.RouteExplanation.Kind;
import io.rackfabric.fabric.routing.PortRole;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Device Lending set-ups (lending-b2b, lending-3way): the paths their header comments promise.
 * An adapter pair and its cable are one NTB chip there (ntb-latency is the pair's whole crossing),
 * so each path between two hosts crosses exactly one NTB on exactly one chip, and a borrower's
 * path to a lender passes two chips: that NTB chip and the lender's motherboard switch.
 */
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
    assertOneNtbChipAmong(2, r);
  }

  @ParameterizedTest
  @CsvSource({
      "lending-b2b, gpu, 0x2_0000_0040",
      "lending-b2b, disk, 0x2_0000_0040",
      "lending-3way, gpu-a1, 0x2_0000_0040",
      "lending-3way, gpu-b, 0x2_1000_0040"})
  void shouldLandInTheBorrowersRamWhenALentDeviceWritesItsDmaWindow(String topology, String gpu, String expected)
      throws TopologyException {
    RouteExplanation r = explain(topology, gpu, 48 * GIB + 0x40, false);

    assertEquals(Kind.DELIVERED, r.outcome().kind(), r.toText());
    assertEquals("borrower", r.outcome().component());
    assertEquals(parse(expected), r.outcome().address());
    assertTrue(r.outcome().barRange().contains(r.outcome().address()), "in the borrower's RAM");
    assertOneNtbChipAmong(2, r);
  }

  @ParameterizedTest
  @CsvSource({"lending-b2b, 1", "lending-3way, 3"})
  void shouldPutExactlyOneNtbPortOnEveryCableWhenTheSetUpLoads(String topology, int expectedCables)
      throws TopologyException {
    Topology t = TopologyLoader.load(topology);
    int cables = 0;
    for (LinkSpec link : t.links()) {
      if (!nodeOf(t, link.a()).equals(nodeOf(t, link.b()))) {
        cables++;
        assertEquals(1, (isNtbPort(t, link.a()) ? 1 : 0) + (isNtbPort(t, link.b()) ? 1 : 0),
            link.a() + " -- " + link.b() + ": a cable is one NTB crossing, an NTB port at exactly one end");
      }
    }
    assertEquals(expectedCables, cables, "the paper's cables");
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
  void shouldReachTheDisksRegistersThroughOneNtbChipWhenTheBorrowerWritesItsWindow() throws TopologyException {
    assertBar("lending-b2b", "borrower", 82 * GIB + 0x28, "disk", 0);
    RouteExplanation r = explain("lending-b2b", "borrower", 82 * GIB + 0x28, false);
    assertEquals(0xC010_0028L, r.outcome().address(), "SQ_TAIL of the disk's BAR0");
    assertEquals(List.of("borrower", "lender-pxh", "lender-sw", "disk"),
        r.hops().stream().map(Hop::component).toList());
  }

  @Test
  void shouldStayInTheLenderWhenTheLenderWritesItsOwnDisk() throws TopologyException {
    RouteExplanation r = explain("lending-b2b", "lender", 0xC010_0028L, false);
    assertEquals("disk", r.outcome().component(), r.toText());
    assertEquals(List.of("lender", "lender-sw", "disk"), r.hops().stream().map(Hop::component).toList());
    RouteExplanation dma = explain("lending-b2b", "disk", GIB + 0x1000, false);
    assertEquals("lender", dma.outcome().component(), dma.toText());
    assertEquals(List.of("disk", "lender-sw", "lender"), dma.hops().stream().map(Hop::component).toList());
  }

  @Test
  void shouldReachTheOtherLendersGpusOverTheLendersLink() throws TopologyException {
    assertBar("lending-3way", "lender-a", 56 * GIB, "gpu-b", 0);
    assertBar("lending-3way", "gpu-a1", 57 * GIB + 0x40, "gpu-b", 1);
    assertBar("lending-3way", "lender-b", 56 * GIB + MIB, "gpu-a2", 0);
    assertBar("lending-3way", "gpu-b", 57 * GIB + 256 * MIB, "gpu-a2", 1);
    RouteExplanation r = explain("lending-3way", "gpu-a1", 57 * GIB, false);
    assertEquals(List.of("gpu-a1", "lender-a-sw", "lender-b-pxh", "lender-b-sw", "gpu-b"),
        r.hops().stream().map(Hop::component).toList(), "not through the borrower");
    RouteExplanation back = explain("lending-3way", "lender-b", 56 * GIB + MIB, false);
    assertEquals(List.of("lender-b", "lender-b-sw", "lender-b-pxh", "lender-a-sw", "gpu-a2"),
        back.hops().stream().map(Hop::component).toList(), "not through the borrower");
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
    // the borrower's adapter and the lender's switch; between the lenders, both switches and B's adapter
    assertOneNtbChipAmong(from.equals("borrower") ? 2 : 3, r);
  }

  /** One NTB translation, on one chip, among exactly {@code chips} switch chips. */
  private static void assertOneNtbChipAmong(int chips, RouteExplanation r) {
    assertEquals(1, r.hops().stream().mapToInt(h -> h.translations().size()).sum(), r.toText());
    assertEquals(1, r.hops().stream().filter(h -> !h.translations().isEmpty()).count(), r.toText());
    assertEquals(chips, r.hops().stream().filter(h -> h.in() != null).count(), "switch chips: " + r.toText());
  }

  private static String nodeOf(Topology t, String end) {
    return t.component(LinkSpec.componentOf(end)).orElseThrow().node();
  }

  private static boolean isNtbPort(Topology t, String end) {
    String port = LinkSpec.portOf(end);
    return port != null && t.switchSpec(LinkSpec.componentOf(end)).orElseThrow().port(port).orElseThrow().role()
        == PortRole.NTB;
  }

  private static long parse(String hex) {
    return Long.parseLong(hex.replace("_", "").substring(2), 16);
  }

  private static RouteExplanation explain(String topology, String from, long address, boolean read)
      throws TopologyException {
    return new RouteExplainer(TopologyLoader.load(topology)).explain(from, address, read);
  }
}
