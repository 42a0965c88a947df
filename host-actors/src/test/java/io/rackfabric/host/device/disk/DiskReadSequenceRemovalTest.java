package io.rackfabric.host.device.disk;

import static io.rackfabric.host.device.disk.DiskReadSequenceTest.MSI_HOST;
import static io.rackfabric.host.device.disk.DiskReadSequenceTest.REGS;
import static io.rackfabric.host.device.disk.DiskReadSequenceTest.complete;
import static io.rackfabric.host.device.disk.DiskReadSequenceTest.msi;
import static io.rackfabric.host.device.disk.DiskReadSequenceTest.plan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.host.device.Pcie;
import io.rackfabric.host.device.disk.DiskReadPlan.Read;
import io.rackfabric.host.device.disk.DiskReadSequence.LostRead;
import io.rackfabric.host.device.disk.DiskReadSequence.RegisterRead;
import io.rackfabric.host.device.disk.DiskReadSequence.Submission;
import io.rackfabric.host.device.disk.DiskReadSequence.SurpriseRemoval;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link DiskReadSequence} with a watchdog, stepped at explicit model times as the driver's endpoint calls it. */
class DiskReadSequenceRemovalTest {

  static final long WATCHDOG = 50_000;
  static final List<Read> THREE = List.of(new Read(0, 8), new Read(8, 8), new Read(16, 16));

  @Test
  void shouldDeclareASurpriseRemovalWithTheReadInFlightLostWhenTheProbeIsRefused() {
    DiskReadSequence s = new DiskReadSequence(plan(THREE), WATCHDOG);
    s.setUp(0);
    assertEquals(Long.MAX_VALUE, s.watchdogDeadline(), "the set-up awaits no message");
    Submission first = s.begin(1_000);
    assertEquals(1_000 + WATCHDOG, s.watchdogDeadline(), "the first message's deadline");
    Submission second = complete(s, first, 0, true, 3_000).submissions().get(0);
    assertEquals(3_000 + WATCHDOG, s.watchdogDeadline(), "each doorbell moves the deadline");
    assertEquals(3_000, second.doorbell().at());

    RegisterRead probe = s.watchdogExpired(53_000);
    assertEquals(new RegisterRead(REGS + DiskRegisters.STATUS, 4, 53_000), probe, "the disk's STATUS, at the deadline");
    assertFalse(s.over());
    s.probeAnswered(CompletionStatus.UNSUPPORTED_REQUEST, null, 53_000, 800);

    assertTrue(s.over());
    assertFalse(s.finished());
    SurpriseRemoval r = s.removal();
    assertEquals(53_800, r.at(), "declared when the refusal came back");
    assertEquals(new LostRead(1, 8, 8, 3_000), r.lost(), "the read in flight is lost");
    assertEquals(1, r.notStarted());
    assertEquals(1, s.records().size(), "the completed one stays");
    assertTrue(r.reason().contains("UNSUPPORTED_REQUEST"), r.reason());
    assertEquals(Long.MAX_VALUE, s.watchdogDeadline(), "nothing more is awaited");
    assertTrue(s.msiArrived(MSI_HOST, msi(), 60_000).isEmpty(), "a late message starts no next read");
  }

  @Test
  void shouldDeclareARemovalWhenTheProbeReadsAllOnesOrGoesUnanswered() {
    DiskReadSequence ones = new DiskReadSequence(plan(THREE), WATCHDOG);
    ones.setUp(0);
    ones.begin(0);
    ones.watchdogExpired(WATCHDOG);
    ones.probeAnswered(CompletionStatus.SUCCESSFUL, Pcie.dword(-1), WATCHDOG, 500);
    assertTrue(ones.removal().reason().contains("all ones"), ones.removal().reason());
    assertEquals(2, ones.removal().notStarted());

    DiskReadSequence silent = new DiskReadSequence(plan(THREE), WATCHDOG);
    silent.setUp(0);
    silent.begin(0);
    assertEquals(REGS + DiskRegisters.STATUS, silent.watchdogExpired(WATCHDOG).address());
    assertNull(silent.watchdogExpired(2 * WATCHDOG - 1), "the probe's answer is not due yet");
    assertNull(silent.removal());
    assertNull(silent.watchdogExpired(2 * WATCHDOG));
    assertEquals(2 * WATCHDOG, silent.removal().at());
    assertTrue(silent.removal().reason().contains("completion timeout"), silent.removal().reason());
  }

  @Test
  void shouldIgnoreAnAnswerToAnEarlierProbeWhenASecondProbeIsOpen() {
    DiskReadSequence s = new DiskReadSequence(plan(THREE), WATCHDOG);
    s.setUp(0);
    s.begin(0);
    s.watchdogExpired(WATCHDOG);
    s.probeAnswered(CompletionStatus.SUCCESSFUL, Pcie.dword(1), WATCHDOG, 700); // alive: the wait starts over
    long second = 2 * WATCHDOG + 700;
    assertEquals(second, s.watchdogExpired(second).at());
    s.probeAnswered(CompletionStatus.UNSUPPORTED_REQUEST, null, WATCHDOG, 900);
    assertNull(s.removal(), "an answer to the first probe is not the second's");
    s.probeAnswered(CompletionStatus.UNSUPPORTED_REQUEST, null, second, 300);
    assertEquals(second + 300, s.removal().at());
  }

  @Test
  void shouldGoOnWaitingWhenTheProbeFindsTheDiskThere() {
    DiskReadSequence s = new DiskReadSequence(plan(THREE), WATCHDOG);
    s.setUp(0);
    Submission first = s.begin(0);
    s.watchdogExpired(WATCHDOG);
    s.probeAnswered(CompletionStatus.SUCCESSFUL, Pcie.dword(1), WATCHDOG, 700);
    assertNull(s.removal());
    assertEquals(WATCHDOG + 700 + WATCHDOG, s.watchdogDeadline(), "a slow disk: the wait starts over");
    assertFalse(complete(s, first, 0, true, 120_000).isEmpty(), "its late message goes on as usual");
    assertEquals(1, s.records().size());
  }

  @Test
  void shouldLoseTheReadInFlightAndStartNoMoreWhenTheDiskIsHotRemoved() {
    DiskReadSequence s = new DiskReadSequence(plan(THREE), WATCHDOG);
    s.setUp(0);
    Submission first = s.begin(1_000);
    complete(s, first, 0, true, 3_000);
    s.hotRemoved(4_000, "hot-removed: the controller ended the loan");

    assertTrue(s.over());
    SurpriseRemoval r = s.removal();
    assertEquals(new SurpriseRemoval(4_000, "hot-removed: the controller ended the loan", new LostRead(1, 8, 8, 3_000), 1),
        r, "at the notice's time, the second read lost, the third never started");
    assertEquals(Long.MAX_VALUE, s.watchdogDeadline(), "the watchdog is taken back");
    assertNull(s.watchdogExpired(53_000));
    assertTrue(s.msiArrived(MSI_HOST, msi(), 5_000).isEmpty(), "a late message starts no next read");
    s.hotRemoved(6_000, "again");
    assertEquals(r, s.removal(), "once");
  }

  @Test
  void shouldLoseNoReadWhenTheDiskIsHotRemovedBeforeTheFirstDoorbellAndNothingWhenThePlanIsOver() {
    DiskReadSequence early = new DiskReadSequence(plan(THREE), WATCHDOG);
    early.setUp(0);
    early.hotRemoved(500, "gone");
    assertEquals(new SurpriseRemoval(500, "gone", null, 3), early.removal());
    assertNull(early.begin(1_000), "no doorbell after the removal");

    DiskReadSequence done = new DiskReadSequence(plan(List.of(new Read(0, 8))), WATCHDOG);
    done.setUp(0);
    complete(done, done.begin(1_000), 0, true, 3_000);
    assertTrue(done.finished());
    done.hotRemoved(4_000, "gone");
    assertNull(done.removal(), "a plan over already loses nothing");
  }
}
