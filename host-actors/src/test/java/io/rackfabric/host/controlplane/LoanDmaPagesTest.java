package io.rackfabric.host.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.AccessCheckChange;
import io.rackfabric.fabric.endpoint.InboundAccessCheck;
import io.rackfabric.host.iommu.IommuAccessCheck;
import io.rackfabric.host.iommu.IommuTable;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Controller.Status;
import io.rackfabric.persistence.controller.ControllerEvent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LoanDmaPagesTest {

  private static final int PRIMARY = 0x0102;
  private static final int SECONDARY = 0x0203;
  /** A host's IOMMU that governs only a host ID (0x0300), as the plan starts it. */
  private InboundAccessCheck check = new IommuAccessCheck(
      new IommuTable("ch2", List.of(new AddressRange(0, 8L << 30))), new int[] {0x0300});
  /** The GPU's MSI word in ch2's RAM. */
  private static final long MSI = 0x1_1000_0000L + 0x40;
  private final LoanDmaPages pages = new LoanDmaPages(Map.of("gpu1", List.of(PRIMARY, SECONDARY)));

  @Test
  void shouldServeTheDeviceWhenNotBorrowed() {
    assertEquals(InboundAccessCheck.Decision.ALLOW, check.decide(PRIMARY, 0x1_0000_0000L, 64, true));
  }

  @Test
  void shouldBlockEveryDmaWhenBorrowedAndNothingMapped() {
    apply(pages.answered(borrow(), accepted()).orElseThrow());

    assertEquals(InboundAccessCheck.Decision.DENY, check.decide(PRIMARY, 0x1_0000_0000L, 64, true));
    assertEquals(InboundAccessCheck.Decision.DENY, check.decide(SECONDARY, 0x1_0000_0000L, 64, false));
  }

  @Test
  void shouldOpenTheBufferUnderEveryPlanesIdWhenMapped() {
    apply(pages.answered(borrow(), accepted()).orElseThrow());
    apply(pages.answered(map(0x1_0000_0000L, 0x1_0000), mapped(0x0, 0x1_0000_0000L, 0x1_0000)).orElseThrow());

    for (int id : new int[] {PRIMARY, SECONDARY}) {
      assertEquals(InboundAccessCheck.Decision.ALLOW, check.decide(id, 0x1_0000_FFC0L, 64, true));
      assertEquals(InboundAccessCheck.Decision.DENY, check.decide(id, 0x1_0001_0000L, 64, true));
    }
    assertEquals(16, pages.openPages("gpu1"));
  }

  @Test
  void shouldKeepSharedPagesOpenWhenOneOfTwoMappingsIsUnmapped() {
    apply(pages.answered(map(0x1_0000_0000L, 0x800), mapped(0x0, 0x1_0000_0000L, 0x800)).orElseThrow());
    apply(pages.answered(map(0x1_0000_0800L, 0x1800), mapped(0x1000, 0x1_0000_0800L, 0x1800)).orElseThrow());

    assertTrue(pages.answered(unmap(0x1800_0000_0000L), unmapped(0x0)).isEmpty(), "its one page is the other's too");

    assertEquals(2, pages.openPages("gpu1"));
    assertEquals(InboundAccessCheck.Decision.ALLOW, check.decide(PRIMARY, 0x1_0000_0000L, 64, true));
  }

  @Test
  void shouldCloseEveryPageWhenReturned() {
    apply(pages.answered(borrow(), accepted()).orElseThrow());
    apply(pages.answered(map(0x1_0000_0000L, 0x2000), mapped(0x0, 0x1_0000_0000L, 0x2000)).orElseThrow());

    apply(pages.answered(new Controller.ReturnDevice("gpu1", "ch2", 0, null), accepted()).orElseThrow());

    assertEquals(0, pages.openPages("gpu1"));
    assertEquals(InboundAccessCheck.Decision.DENY, check.decide(PRIMARY, 0x1_0000_0000L, 64, true));
    assertTrue(pages.ended("gpu1").isEmpty(), "nothing left to close");
  }

  @Test
  void shouldOpenTheMsiPathsPageUnderEveryPlanesIdWhenBorrowedWithOne() {
    apply(pages.answered(borrow(), borrowedWithMsi(MSI)).orElseThrow());

    for (int id : new int[] {PRIMARY, SECONDARY}) {
      assertEquals(InboundAccessCheck.Decision.ALLOW, check.decide(id, MSI, 4, true), "the MSI passes");
      assertEquals(InboundAccessCheck.Decision.DENY, check.decide(id, MSI + 0x1000, 4, true), "the next page");
      assertEquals(InboundAccessCheck.Decision.DENY, check.decide(id, 0x1_0000_0000L, 64, true), "nothing mapped");
    }
    assertEquals(1, pages.openPages("gpu1"));
  }

  @Test
  void shouldKeepTheMsiPageOpenWhenABufferOnItIsUnmappedAndCloseItWhenTheLoanEnds() {
    apply(pages.answered(borrow(), borrowedWithMsi(MSI)).orElseThrow());
    long page = MSI & -IommuTable.PAGE_SIZE;
    apply(pages.answered(map(page, 0x1000), mapped(0x0, page, 0x1000)).orElseThrow());

    assertTrue(pages.answered(unmap(0x1800_0000_0000L), unmapped(0x0)).isEmpty(), "the MSI path holds the page");
    assertEquals(InboundAccessCheck.Decision.ALLOW, check.decide(PRIMARY, MSI, 4, true));

    apply(pages.ended("gpu1").orElseThrow());
    assertEquals(0, pages.openPages("gpu1"));
    assertEquals(InboundAccessCheck.Decision.DENY, check.decide(SECONDARY, MSI, 4, true), "closed with the loan");
  }

  @Test
  void shouldChangeNothingWhenRefusedOrForAnUnknownDevice() {
    OperationResult refused = new OperationResult(Status.REJECTED, 1, 0, "no", List.of());

    assertTrue(pages.answered(borrow(), refused).isEmpty());
    assertTrue(pages.answered(new Controller.BorrowDevice("nic", "ch2", null, 0, 0, 0, 0, null), accepted())
        .isEmpty());
  }

  private void apply(AccessCheckChange change) {
    AccessCheckChange.Result r = change.applyTo("ch2", check);
    assertTrue(r.accepted(), r.detail());
    check = r.check();
  }

  private static Controller.BorrowDevice borrow() {
    return new Controller.BorrowDevice("gpu1", "ch2", null, 0x1800_0000_0000L, 8L << 30, 0, 0, null);
  }

  private static Controller.MapDmaBuffer map(long buffer, long size) {
    return new Controller.MapDmaBuffer("gpu1", "ch2", buffer, size, 0, null);
  }

  private static Controller.UnmapDmaBuffer unmap(long deviceAddress) {
    return new Controller.UnmapDmaBuffer("gpu1", "ch2", deviceAddress, 0, null);
  }

  /** The borrow's answer with the loan's MSI path to {@code msi}. */
  private static OperationResult borrowedWithMsi(long msi) {
    return new OperationResult(Status.ACCEPTED, 1, 0, null, List.of(
        new ControllerEvent.DeviceLent("gpu1", "ch2", null, 0x1800_0000_0000L, 8L << 30, 0, 0),
        new ControllerEvent.MsiPathOpened("gpu1", "ch2", msi, 0)));
  }

  private static OperationResult accepted() {
    return new OperationResult(Status.ACCEPTED, 1, 0, null, List.of());
  }

  private static OperationResult mapped(long offset, long buffer, long size) {
    return new OperationResult(Status.ACCEPTED, 1, 0, null,
        List.of(new ControllerEvent.DmaBufferMapped("gpu1", offset, buffer, size, 0)));
  }

  private static OperationResult unmapped(long offset) {
    return new OperationResult(Status.ACCEPTED, 1, 0, null, List.of(new ControllerEvent.DmaBufferUnmapped("gpu1", offset, 0)));
  }
}
