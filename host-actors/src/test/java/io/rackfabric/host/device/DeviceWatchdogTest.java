package io.rackfabric.host.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.host.device.DeviceWatchdog.Verdict;
import org.junit.jupiter.api.Test;

class DeviceWatchdogTest {

  static final long PERIOD = 1_000;

  @Test
  void shouldProbeAtTheDeadlineAndNotBeforeWhenTheInterruptIsLate() {
    DeviceWatchdog w = new DeviceWatchdog(PERIOD);
    assertEquals(DeviceWatchdog.NONE, w.deadline(), "nothing awaited yet");
    assertEquals(Verdict.WAIT, w.expired(5_000), "no wait open");
    w.expect(10_000);
    assertEquals(11_000, w.deadline());
    assertEquals(Verdict.WAIT, w.expired(10_999), "a wake before the deadline is stale");
    assertEquals(Verdict.PROBE, w.expired(11_000));
    assertTrue(w.probing());
    assertEquals(12_000, w.deadline(), "the probe's answer is due a period later");
  }

  @Test
  void shouldStartTheWaitOverWhenTheProbeFindsTheDeviceAlive() {
    DeviceWatchdog w = new DeviceWatchdog(PERIOD);
    w.expect(0);
    w.expired(1_000);
    assertEquals(Verdict.WAIT, w.probeAnswered(CompletionStatus.SUCCESSFUL, Pcie.dword(1), 1_400));
    assertFalse(w.probing());
    assertEquals(2_400, w.deadline(), "a new period from the answer");
    assertEquals("", w.reason());
  }

  @Test
  void shouldDeclareRemovalWhenTheProbeIsAnsweredWithAnErrorCompletion() {
    DeviceWatchdog w = new DeviceWatchdog(PERIOD);
    w.expect(0);
    w.expired(1_000);
    assertEquals(Verdict.REMOVED, w.probeAnswered(CompletionStatus.UNSUPPORTED_REQUEST, null, 1_200));
    assertTrue(w.reason().contains("UNSUPPORTED_REQUEST at 1200 ns"), w.reason());
    assertEquals(DeviceWatchdog.NONE, w.deadline(), "nothing more to wait for");
  }

  @Test
  void shouldDeclareRemovalWhenTheProbeReadsAllOnes() {
    DeviceWatchdog w = new DeviceWatchdog(PERIOD);
    w.expect(0);
    w.expired(1_000);
    assertEquals(Verdict.REMOVED, w.probeAnswered(CompletionStatus.SUCCESSFUL, Pcie.dword(-1), 1_300));
    assertTrue(w.reason().contains("all ones"), w.reason());
  }

  @Test
  void shouldDeclareRemovalWhenTheProbeIsNotAnsweredWithinAPeriod() {
    DeviceWatchdog w = new DeviceWatchdog(PERIOD);
    w.expect(0);
    w.expired(1_000);
    assertEquals(Verdict.WAIT, w.expired(1_999));
    assertEquals(Verdict.REMOVED, w.expired(2_000));
    assertTrue(w.reason().contains("completion timeout"), w.reason());
  }

  @Test
  void shouldIgnoreAProbeAnswerWhenNoProbeIsOpen() {
    DeviceWatchdog w = new DeviceWatchdog(PERIOD);
    w.expect(0);
    assertEquals(Verdict.WAIT, w.probeAnswered(CompletionStatus.UNSUPPORTED_REQUEST, null, 500));
    assertEquals(1_000, w.deadline());
    w.stop();
    assertEquals(Verdict.WAIT, w.expired(1_000), "stopped: the interrupt came");
  }

  @Test
  void shouldNotTakeAnOlderProbesAnswerForTheOpenOneWhenTheWaitStartedOverMeanwhile() {
    DeviceWatchdog w = new DeviceWatchdog(PERIOD);
    w.expect(0);
    assertEquals(Verdict.PROBE, w.expired(1_000)); // the first probe, through the old registers
    w.expect(1_500); // a window move: the driver rang again
    assertFalse(w.answers(1_000), "no probe open");
    assertEquals(Verdict.PROBE, w.expired(2_500));
    assertFalse(w.answers(1_000), "the first probe's answer, late");
    assertTrue(w.answers(2_500));
    assertTrue(w.answers(-1), "an answer whose issue time is not known is the open probe's");
  }

  @Test
  void shouldRefuseAPeriodWhenItIsNotPositive() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new DeviceWatchdog(0));
    assertTrue(e.getMessage().contains("periodNs=0"), e.getMessage());
  }
}
