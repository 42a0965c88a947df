package io.rackfabric.cluster.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rackfabric.cluster.topology.RouteExplanation.Hop;
import io.rackfabric.cluster.topology.RouteExplanation.Kind;
import io.rackfabric.fabric.routing.PortRole;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * lending-vm (Device Lending's Figure 15): the paths its header comment promises. The chassis's
 * devices and NTB adapter are below the chassis switch, the chassis on the transparent link's chip
 * (lender-tl) below the lender's root, the borrower on the NTB chip's virtual side.
 */
class LendingVmTopologyTest {

  private static final long GIB = 1L << 30;

  @Test
  void shouldPutOneNtbPortOnTheNtbCableAndNoneOnTheTransparentLinkWhenTheSetUpLoads() throws TopologyException {
    Topology t = TopologyLoader.load("lending-vm");
    long ntbPorts = t.switches().stream().flatMap(s -> s.ports().stream()).filter(p -> p.role() == PortRole.NTB).count();
    assertEquals(1, ntbPorts, "one NTB chip, for the one cable between the hosts");
    assertEquals(List.of("chassis-ntb.cable", "borrower"), List.of(
        t.linkAt("borrower").orElseThrow().other("borrower"), "borrower"));
    assertEquals("chassis-sw.up", t.linkAt("lender-tl.cable").orElseThrow().other("lender-tl.cable"));
  }

  @ParameterizedTest
  @CsvSource({
      "0x14_0000_0010, gpu1, 0, 0xC000_0010",
      "0x14_0010_0010, gpu2, 0, 0xC010_0010",
      "0x14_4000_0040, gpu1, 1, 0x8_0000_0040",
      "0x14_5000_0040, gpu2, 1, 0x8_1000_0040",
      "0x14_8000_0028, disk, 0, 0xC020_0028"})
  void shouldReachEveryChassisBarThroughTheNtbWhenTheBorrowerWritesItsWindows(String address, String device, int bar,
      String lenderSide) throws TopologyException {
    RouteExplanation r = explain(TopologyLoader.load("lending-vm"), "borrower", parse(address));
    assertEquals(Kind.DELIVERED, r.outcome().kind(), r.toText());
    assertEquals(device, r.outcome().component(), r.toText());
    assertEquals(bar, r.outcome().bar());
    assertEquals(parse(lenderSide), r.outcome().address());
    assertEquals(List.of("borrower", "chassis-ntb", "chassis-sw", device), components(r), "not through the root");
  }

  @Test
  void shouldReachTheLendersRamThroughBothChassisChipsAndTheTransparentLinkWhenTheBorrowerWritesIt()
      throws TopologyException {
    RouteExplanation r = explain(TopologyLoader.load("lending-vm"), "borrower", 64 * GIB + 0x100);
    assertEquals("lender", r.outcome().component(), r.toText());
    assertEquals(GIB + 0x100, r.outcome().address());
    assertEquals(List.of("borrower", "chassis-ntb", "chassis-sw", "lender-tl", "lender"), components(r));
  }

  @Test
  void shouldCrossOnlyTheChassisWhenAGpuWritesTheBorrowersRamWithTheIommuOff() throws TopologyException {
    RouteExplanation r = explain(TopologyLoader.load("lending-vm"), "gpu1", 48 * GIB + 0x40);
    assertEquals("borrower", r.outcome().component(), r.toText());
    assertEquals(8 * GIB + 0x40, r.outcome().address());
    assertEquals(List.of("gpu1", "chassis-sw", "chassis-ntb", "borrower"), components(r));
  }

  @Test
  void shouldGoUpThroughTheLendersRootBeforeTheNtbWhenTheLendersIommuIsOn() throws TopologyException {
    Topology t = HostIommu.enable(TopologyLoader.load("lending-vm"), "lender");
    RouteExplanation r = explain(t, "gpu1", 48 * GIB + 0x40);
    assertEquals("borrower", r.outcome().component(), r.toText());
    assertEquals(List.of("gpu1", "chassis-sw", "lender-tl", "lender", "lender-tl", "chassis-sw", "chassis-ntb",
        "borrower"), components(r), "the paper: TLPs go through the lender's root before the NTB");
    RouteExplanation p2p = explain(t, "gpu1", 32 * GIB + 256 * (1L << 20));
    assertEquals("gpu2", p2p.outcome().component(), p2p.toText());
    assertEquals(List.of("gpu1", "chassis-sw", "lender-tl", "lender", "lender-tl", "chassis-sw", "gpu2"),
        components(p2p));
  }

  @Test
  void shouldStayInTheChassisSwitchWhenOneGpuWritesTheOtherWithTheIommuOff() throws TopologyException {
    RouteExplanation r = explain(TopologyLoader.load("lending-vm"), "gpu1", 32 * GIB + 256 * (1L << 20) + 0x40);
    assertEquals("gpu2", r.outcome().component(), r.toText());
    assertEquals(List.of("gpu1", "chassis-sw", "gpu2"), components(r));
  }

  private static List<String> components(RouteExplanation r) {
    return r.hops().stream().map(Hop::component).toList();
  }

  private static RouteExplanation explain(Topology t, String from, long address) {
    return new RouteExplainer(t).explain(from, address, false);
  }

  private static long parse(String hex) {
    return Long.parseLong(hex.replace("_", "").substring(2), 16);
  }
}
