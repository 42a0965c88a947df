package io.rackfabric.cluster.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Hops of Device Lending's Figure 17 data paths, counted off the route explainer on lending-vm
 * with the lender's IOMMU on (every Table 2 scenario has it on: VFIO, the mdev extension, or the
 * native comparison with the IOMMU forced on).
 */
class DataPathTest {

  private static final long GIB = 1L << 30;
  private static final long GPU2_BAR1 = 32 * GIB + (256L << 20);
  /** The borrower's RAM through the DMA window, as the chassis devices address it. */
  private static final long WINDOW = 48 * GIB;

  @Test
  void shouldCountSevenHopsWhenALocalVmBouncesThroughTheLendersRam() throws TopologyException {
    DataPath p = DataPath.viaRam(iommuOn(), "gpu1", GIB, "gpu2", GIB);
    assertEquals(List.of("gpu1", "chassis-sw", "lender-tl", "lender", "lender-tl", "chassis-sw", "gpu2"),
        p.components());
    assertEquals(7, p.hops());
    assertEquals(0, p.ntbCrossings());
  }

  @Test
  void shouldPassThreeRootsTheNtbTwiceAndTheTransparentLinkFourTimesWhenARemoteVmBouncesThroughItsRam()
      throws TopologyException {
    Topology t = iommuOn();
    DataPath p = DataPath.viaRam(t, "gpu1", WINDOW + 0x40, "gpu2", WINDOW + 0x40);
    assertEquals(3, p.roots(t), p.line());
    assertEquals(2, p.ntbCrossings(), p.line());
    assertEquals(2, p.passes("chassis-ntb"), p.line());
    assertEquals(4, p.passes("lender-tl"), p.line());
    assertEquals(4, p.passes("chassis-sw"), p.line());
    assertEquals(15, p.hops(), p.line());
  }

  @Test
  void shouldCountTheSamePathLocallyAndRemotelyWhenTheGpusWriteEachOtherThroughTheLendersRoot()
      throws TopologyException {
    DataPath p = DataPath.peerToPeer(iommuOn(), "gpu1", GPU2_BAR1);
    assertEquals(7, p.hops(), p.line());
    assertEquals(1, p.roots(iommuOn()));
  }

  @Test
  void shouldCountOnlyTheChassisSwitchWhenTheIommuIsOff() throws TopologyException {
    DataPath p = DataPath.peerToPeer(TopologyLoader.load("lending-vm"), "gpu1", GPU2_BAR1);
    assertEquals(List.of("gpu1", "chassis-sw", "gpu2"), p.components());
  }

  @Test
  void shouldAddOneHopForEachPassOfAnExtraSwitchWhenAGpuSitsDeeper() throws Exception {
    Topology riser = TopologyLoader.load(Path.of(DataPathTest.class.getResource("/lending/chassis-riser.conf").toURI()));
    DataPath viaRam = DataPath.viaRam(riser, "gpu1", GIB, "gpu2", GIB);
    assertEquals(List.of("gpu1", "riser", "chassis-sw", "lender-tl", "lender", "lender-tl", "chassis-sw", "gpu2"),
        viaRam.components());
    assertEquals(DataPath.viaRam(TopologyLoader.load("lending-vm"), "gpu1", GIB, "gpu2", GIB).hops() + 1,
        viaRam.hops());
    assertEquals(4, DataPath.peerToPeer(riser, "gpu1", GPU2_BAR1).hops());
  }

  @Test
  void shouldNameTheAddressWhenAWriteIsNotDelivered() throws TopologyException {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DataPath.peerToPeer(iommuOn(), "gpu1", 200 * GIB));
    assertTrue(e.getMessage().contains("0x3200000000"), e.getMessage());
  }

  @Test
  void shouldRefuseAViaRamTransferWhenTheWriteLandsInADevice() throws TopologyException {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DataPath.viaRam(iommuOn(), "gpu1", GPU2_BAR1, "gpu2", GIB));
    assertTrue(e.getMessage().contains("ends at gpu2") && e.getMessage().contains("same root's RAM"), e.getMessage());
  }

  private static Topology iommuOn() throws TopologyException {
    return HostIommu.enable(TopologyLoader.load("lending-vm"), "lender");
  }
}
