package io.rackfabric.cluster.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HostIommuTest {

  @Test
  void shouldSendTheGpusDmaThroughTheLendersRootWhenItsIommuIsOn() throws Exception {
    Topology plain = TopologyLoader.load("lending-b2b");
    Topology iommu = HostIommu.enable(plain, "lender");
    assertTrue(iommu.endpoint("lender").orElseThrow().relay());
    assertTrue(iommu.switchSpec("lender-sw").orElseThrow().port("gpu").orElseThrow().acsRedirect());
    assertTrue(iommu.switchSpec("lender-sw").orElseThrow().port("ntb").orElseThrow().acsRedirect());
    assertFalse(iommu.endpoint("borrower").orElseThrow().relay(), "the borrower's IOMMU stays as it was");
    // Shortest path: the GPU's DMA into the borrower's window crosses the switch beside it.
    RouteExplanation direct = new RouteExplainer(plain).explain("gpu", 0xC_0000_0040L, false);
    assertTrue(direct.delivered());
    assertNull(direct.hopAt("lender"), direct.toText());
    // With the IOMMU on it goes up through the lender's root and back down, and still arrives.
    RouteExplanation through = new RouteExplainer(iommu).explain("gpu", 0xC_0000_0040L, false);
    assertTrue(through.delivered(), through.toText());
    assertEquals("borrower", through.target());
    assertNotNull(through.hopAt("lender"), through.toText());
  }

  @Test
  void shouldLeaveTheOtherVirtualSwitchAloneWhenAChipIsSplitBetweenTwoHosts() throws Exception {
    // ladon-testbed's tor: VS1 the MMH's, VS2 the BMH's.
    Topology t = HostIommu.enable(TopologyLoader.load("ladon-testbed"), "mmh");
    SwitchSpec tor = t.switchSpec("tor").orElseThrow();
    assertTrue(tor.ports().stream().anyMatch(p -> p.acsRedirect()), "the MMH's downstream ports redirect");
    assertTrue(tor.ports().stream().filter(p -> p.virtualSwitch() == 2).noneMatch(p -> p.acsRedirect()),
        "nothing of the BMH's virtual switch");
    assertFalse(t.endpoint("bmh").orElseThrow().relay());
  }

  @Test
  void shouldRefuseAHostThatSitsOnNoUpstreamPortNamingIt() throws Exception {
    Topology t = TopologyLoader.load("lending-b2b");
    var onNtb = assertThrows(IllegalArgumentException.class, () -> HostIommu.enable(t, "borrower"));
    assertTrue(onNtb.getMessage().contains("iommu host=borrower sits on no switch's upstream port"), onNtb.getMessage());
    var notRoot = assertThrows(IllegalArgumentException.class, () -> HostIommu.enable(t, "gpu"));
    assertTrue(notRoot.getMessage().contains("iommu host=gpu is not a root"), notRoot.getMessage());
  }
}
