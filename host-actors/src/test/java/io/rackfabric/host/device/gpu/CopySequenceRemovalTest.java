package io.rackfabric.host.device.gpu;

import static io.rackfabric.host.device.gpu.CopySequenceTest.MSI_HOST;
import static io.rackfabric.host.device.gpu.CopySequenceTest.REGS;
import static io.rackfabric.host.device.gpu.CopySequenceTest.plan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.host.device.gpu.CopySequence.CopyRecord;
import io.rackfabric.host.device.gpu.CopySequence.LostCopy;
import io.rackfabric.host.device.gpu.CopySequence.RegisterRead;
import io.rackfabric.host.device.gpu.CopySequence.SurpriseRemoval;
import io.rackfabric.host.device.gpu.GpuCopyPlan.Copy;
import io.rackfabric.host.device.gpu.GpuCopyPlan.Direction;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link CopySequence} with a watchdog, stepped at explicit model times as the driver's endpoint calls it. */
class CopySequenceRemovalTest {

  static final long WATCHDOG = 50_000;
  static final List<Copy> FOUR = List.of(new Copy(4096, Direction.WRITE), new Copy(4096, Direction.READ),
      new Copy(8192, Direction.WRITE), new Copy(8192, Direction.READ));

  @Test
  void shouldDeclareASurpriseRemovalWithTheCopyInFlightLostWhenTheProbeIsRefused() {
    CopySequence s = new CopySequence(plan(FOUR), WATCHDOG);
    s.begin(1_000);
    assertEquals(1_000 + WATCHDOG, s.watchdogDeadline(), "the first MSI's deadline");
    assertNotNull(s.msiArrived(MSI_HOST, GpuRegisters.dword(1), 3_000));
    assertEquals(3_000 + WATCHDOG, s.watchdogDeadline(), "each doorbell moves the deadline");

    RegisterRead probe = s.watchdogExpired(53_000);
    assertEquals(new RegisterRead(REGS + GpuRegisters.STATUS, 4, 53_000), probe, "the GPU's STATUS, at the deadline");
    assertFalse(s.over());
    s.probeAnswered(CompletionStatus.UNSUPPORTED_REQUEST, null, 53_000, 800);

    assertTrue(s.over());
    assertFalse(s.finished());
    SurpriseRemoval r = s.removal();
    assertEquals(53_800, r.at(), "declared when the refusal came back");
    assertEquals(List.of(new LostCopy(4096, Direction.READ, 3_000)), r.lost(), "the copy in flight is lost");
    assertEquals(2, r.notStarted());
    assertEquals(List.of(new CopyRecord(4096, Direction.WRITE, 1_000, 3_000)), s.records(), "the completed one stays");
    assertTrue(r.reason().contains("UNSUPPORTED_REQUEST"), r.reason());
    assertEquals(Long.MAX_VALUE, s.watchdogDeadline(), "nothing more is awaited");
  }

  @Test
  void shouldIssueNothingMoreWhenTheGpuWasRemoved() {
    CopySequence s = new CopySequence(plan(FOUR), WATCHDOG);
    s.begin(0);
    s.watchdogExpired(WATCHDOG);
    s.probeAnswered(CompletionStatus.SUCCESSFUL, GpuRegisters.dword(-1), WATCHDOG, 500);
    assertTrue(s.removal().reason().contains("all ones"), s.removal().reason());
    assertNull(s.msiArrived(MSI_HOST, GpuRegisters.dword(1), 60_000), "a late MSI starts no next copy");
    assertTrue(s.records().isEmpty());
    assertNull(s.watchdogExpired(200_000));
    assertNull(s.begin(300_000), "no new start");
    assertEquals(3, s.removal().notStarted());
  }

  @Test
  void shouldDeclareARemovalWhenTheProbeGoesUnanswered() {
    CopySequence s = new CopySequence(plan(FOUR), WATCHDOG);
    s.begin(0);
    assertNotNull(s.watchdogExpired(WATCHDOG));
    assertNull(s.watchdogExpired(2 * WATCHDOG - 1), "the probe's answer is not due yet");
    assertNull(s.removal());
    assertNull(s.watchdogExpired(2 * WATCHDOG));
    assertEquals(2 * WATCHDOG, s.removal().at());
    assertTrue(s.removal().reason().contains("completion timeout"), s.removal().reason());
  }

  @Test
  void shouldGoOnWaitingWhenTheProbeFindsTheGpuBusy() {
    CopySequence s = new CopySequence(plan(FOUR), WATCHDOG);
    s.begin(0);
    s.watchdogExpired(WATCHDOG);
    s.probeAnswered(CompletionStatus.SUCCESSFUL, GpuRegisters.dword(1), WATCHDOG, 700); // STATUS: busy
    assertNull(s.removal());
    assertEquals(WATCHDOG + 700 + WATCHDOG, s.watchdogDeadline(), "a new period from the answer");
    assertNotNull(s.msiArrived(MSI_HOST, GpuRegisters.dword(1), 90_000), "the slow copy's MSI still counts");
    assertEquals(List.of(new CopyRecord(4096, Direction.WRITE, 0, 90_000)), s.records());
  }

  @Test
  void shouldIgnoreAStaleWakeOrProbeAnswerWhenTheMsiCameInTime() {
    CopySequence s = new CopySequence(plan(FOUR), WATCHDOG);
    s.begin(0);
    s.msiArrived(MSI_HOST, GpuRegisters.dword(1), 2_000);
    assertNull(s.watchdogExpired(WATCHDOG), "the first copy's deadline, no longer the running one's");
    s.probeAnswered(CompletionStatus.UNSUPPORTED_REQUEST, null, WATCHDOG, 0);
    assertNull(s.removal(), "no probe was open");
  }

  @Test
  void shouldProbeTheSecondGpuWhenItsLegIsLateViaRam() {
    GpuCopyPlan plan = new GpuCopyPlan(REGS, CopySequenceTest.DEVICE, CopySequenceTest.BUF_GPU,
        CopySequenceTest.BUF_HOST, CopySequenceTest.MSI_GPU, MSI_HOST, List.of(new Copy(4096, Direction.WRITE)), 0,
        CopySequenceTest.READER);
    CopySequence s = new CopySequence(plan, WATCHDOG);
    s.begin(0);
    s.msiArrived(MSI_HOST, GpuRegisters.dword(1), 1_000);
    RegisterRead probe = s.watchdogExpired(1_000 + WATCHDOG);
    assertEquals(CopySequenceTest.READER.registers() + GpuRegisters.STATUS, probe.address());
    s.probeAnswered(CompletionStatus.COMPLETER_ABORT, null, 1_000 + WATCHDOG, 0);
    assertEquals(List.of(new LostCopy(4096, Direction.WRITE, 0)), s.removal().lost(),
        "half a copy is a lost copy, from its first doorbell");
    assertTrue(s.removal().reason().contains(Long.toHexString(CopySequenceTest.READER.registers())),
        s.removal().reason());
  }

  @Test
  void shouldFinishWithoutADeadlineWhenEveryMsiCame() {
    CopySequence s = new CopySequence(plan(List.of(new Copy(64, Direction.READ))), WATCHDOG);
    s.begin(0);
    assertNull(s.msiArrived(MSI_HOST, GpuRegisters.dword(1), 400));
    assertTrue(s.over() && s.finished());
    assertNull(s.removal());
    assertEquals(Long.MAX_VALUE, s.watchdogDeadline());
  }

  @Test
  void shouldDeclareASurpriseRemovalAtOnceWithTheCopyInFlightLostWhenTheGpuIsHotRemoved() {
    CopySequence s = new CopySequence(plan(FOUR), WATCHDOG);
    s.begin(1_000);
    s.msiArrived(MSI_HOST, GpuRegisters.dword(1), 3_000);
    s.hotRemoved(4_500, "hot-removed: the controller ended the loan");

    assertTrue(s.over());
    SurpriseRemoval r = s.removal();
    assertEquals(4_500, r.at(), "at the hot-remove, not at the watchdog");
    assertEquals(List.of(new LostCopy(4096, Direction.READ, 3_000)), r.lost(), "the copy in flight is lost");
    assertEquals(2, r.notStarted());
    assertEquals("hot-removed: the controller ended the loan", r.reason());
    assertEquals(Long.MAX_VALUE, s.watchdogDeadline(), "the watchdog is off: no probe follows");
    assertNull(s.watchdogExpired(1_000 + WATCHDOG));
    assertNull(s.msiArrived(MSI_HOST, GpuRegisters.dword(2), 5_000), "a late MSI starts no next copy");
  }

  @Test
  void shouldChangeNothingWhenAFinishedOrRemovedGpuIsHotRemoved() {
    CopySequence s = new CopySequence(plan(FOUR), WATCHDOG);
    s.begin(0);
    s.watchdogExpired(WATCHDOG);
    s.probeAnswered(CompletionStatus.UNSUPPORTED_REQUEST, null, WATCHDOG, 0);
    SurpriseRemoval first = s.removal();
    s.hotRemoved(WATCHDOG + 10, "later");
    assertEquals(first, s.removal(), "the first removal stands");
  }

  @Test
  void shouldCountEveryCopyNotStartedWhenHotRemovedBeforeTheFirstDoorbell() {
    CopySequence s = new CopySequence(plan(FOUR), WATCHDOG);
    s.hotRemoved(500, "hot-removed");
    assertEquals(List.of(), s.removal().lost());
    assertEquals(4, s.removal().notStarted());
  }
}
