package io.rackfabric.host.device.gpu;

import static io.rackfabric.host.device.gpu.CopySequenceTest.BUF_GPU;
import static io.rackfabric.host.device.gpu.CopySequenceTest.DEVICE;
import static io.rackfabric.host.device.gpu.CopySequenceTest.MSI_GPU;
import static io.rackfabric.host.device.gpu.CopySequenceTest.MSI_HOST;
import static io.rackfabric.host.device.gpu.CopySequenceTest.REGS;
import static io.rackfabric.host.device.gpu.CopySequenceTest.plan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.device.gpu.CopySequence.CopyRecord;
import io.rackfabric.host.device.gpu.CopySequence.RegisterWrite;
import io.rackfabric.host.device.gpu.CopySequence.ResentCopy;
import io.rackfabric.host.device.gpu.CopySequence.WindowMove;
import io.rackfabric.host.device.gpu.GpuCopyPlan.Copy;
import io.rackfabric.host.device.gpu.GpuCopyPlan.Direction;
import java.util.List;
import org.junit.jupiter.api.Test;

class CopySequenceWindowMoveTest {

  private static final long BAR_SHIFT = 1L << 40;
  private static final long DMA_SHIFT = 1L << 40;

  /** The doorbell {@code w} rings, decoded as the device does; {@code regs} keeps the MSI it programs. */
  private static GpuRegisters.Doorbell rung(GpuRegisters regs, RegisterWrite w) {
    return regs.written(w.address(), w.data()).doorbell();
  }

  @Test
  void shouldRingTheCopyInFlightAgainThroughTheNewWindowsWhenTheLoanMoves() {
    CopySequence s = new CopySequence(plan(List.of(new Copy(4096, Direction.WRITE), new Copy(8192, Direction.READ))),
        100_000_000);
    s.begin(5_000);
    RegisterWrite again = s.windowsMoved(BAR_SHIFT, DMA_SHIFT, 9_000);
    assertEquals(REGS + BAR_SHIFT, again.address(), "BAR0 through the other plane's window");
    assertEquals(9_000, again.at());
    GpuRegisters regs = new GpuRegisters(REGS + BAR_SHIFT);
    assertEquals(new GpuRegisters.Doorbell(DEVICE, BUF_GPU + DMA_SHIFT, 4096), rung(regs, again),
        "the buffer through the moved DMA window");
    assertEquals(MSI_GPU + DMA_SHIFT, regs.msiAddress(), "the MSI path moves with the DMA window");
    assertEquals(2, regs.msiData(), "a new doorbell number: the old MSI is told apart");
    assertEquals(List.of(new WindowMove(9_000, BAR_SHIFT, DMA_SHIFT,
        new ResentCopy(0, 4096, Direction.WRITE, 5_000, 9_000))), s.moves());
    assertEquals(9_000 + 100_000_000, s.watchdogDeadline(), "the wait starts over at the resend");

    // The first doorbell's MSI, should it come late, is ignored and counted; the resent one ends the copy.
    assertNull(s.msiArrived(MSI_HOST, GpuRegisters.dword(1), 9_500));
    assertEquals(1, s.staleMsis());
    RegisterWrite next = s.msiArrived(MSI_HOST, GpuRegisters.dword(2), 12_000);
    assertEquals(REGS + BAR_SHIFT, next.address(), "later copies go through the new windows too");
    assertEquals(new GpuRegisters.Doorbell(BUF_GPU + DMA_SHIFT, DEVICE, 8192),
        rung(new GpuRegisters(REGS + BAR_SHIFT), next));
    assertNull(s.msiArrived(MSI_HOST, GpuRegisters.dword(3), 20_000));
    assertTrue(s.finished());
    // One record per planned copy: the resent copy counts once, from its first doorbell.
    assertEquals(List.of(new CopyRecord(4096, Direction.WRITE, 5_000, 12_000),
        new CopyRecord(8192, Direction.READ, 12_000, 20_000)), s.records());
  }

  @Test
  void shouldRingNothingWhenNoCopyIsAwaitedOrTheWindowsDidNotChange() {
    CopySequence s = new CopySequence(plan(List.of(new Copy(4096, Direction.WRITE))), 100_000_000);
    assertNull(s.windowsMoved(BAR_SHIFT, DMA_SHIFT, 1_000), "before the first doorbell");
    assertEquals(List.of(new WindowMove(1_000, BAR_SHIFT, DMA_SHIFT, null)), s.moves());
    RegisterWrite first = s.begin(5_000);
    assertEquals(REGS + BAR_SHIFT, first.address(), "the first copy already goes through the moved windows");
    assertNull(s.windowsMoved(BAR_SHIFT, DMA_SHIFT, 6_000), "a repeated notice changes nothing");
    assertEquals(1, s.moves().size());
  }

  @Test
  void shouldProbeTheGpuThroughTheMovedWindowWhenItsMsiIsLate() {
    CopySequence s = new CopySequence(plan(List.of(new Copy(4096, Direction.WRITE))), 1_000);
    s.begin(0);
    s.windowsMoved(BAR_SHIFT, DMA_SHIFT, 100);
    assertEquals(REGS + BAR_SHIFT + GpuRegisters.STATUS, s.watchdogExpired(1_100).address());
  }

  @Test
  void shouldRefuseAMoveOfAPlanViaRam() {
    GpuCopyPlan viaRam = new GpuCopyPlan(REGS, DEVICE, BUF_GPU, 0x1000_0000L, MSI_GPU, MSI_HOST,
        List.of(new Copy(4096, Direction.WRITE)), 0,
        new GpuCopyPlan.Bounce(REGS + 0x4000, DEVICE, BUF_GPU, MSI_GPU));
    CopySequence s = new CopySequence(viaRam);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> s.windowsMoved(BAR_SHIFT, DMA_SHIFT, 0));
    assertTrue(e.getMessage().contains("plan via RAM"), e.getMessage());
  }
}
