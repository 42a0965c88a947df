package io.rackfabric.host.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import io.rackfabric.host.ftgm.FtgmSettings;
import io.rackfabric.host.ftgm.NicFaultDaemon;
import io.rackfabric.host.ftgm.RecoveryBreakdown;
import io.rackfabric.host.ftgm.RecoveryEvent;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The NIC's firmware hangs mid-stream on a small fabric (SriovNicTest's rig) and the MH's
 * fault-tolerance daemon recovers it: the watchdog's MSI-X write crosses the switch to the MH,
 * the daemon resets, reloads and restores the card, and the sender's handler reprograms its ring.
 */
class SriovNicHangTest {

  static final FtgmSettings FTGM = FtgmSettings.create(SriovNicTest.testKit.system().settings().config());
  /** The watchdog vector's address in the MH's memory. */
  static final long MSI = 0x0F00_0000L;
  static final int COUNT = 300;

  record Run(ReceiverReport report, StreamSummary stream, NicFaultDaemon.NicRecoveries recoveries,
      UdpSender.SendDone done) {}

  static Run hangMidStream(String p, McpMode mode) {
    SriovNicTest.Rig rig = SriovNicTest.rig(p, SriovNicTest.NIC, FTGM.timing());
    ActorRef<NicFaultDaemon.Command> daemon = SriovNicTest.testKit.spawn(
        NicFaultDaemon.create(p + "nic", rig.nic(), rig.mh(), MSI, FTGM), p + "ftd");
    daemon.tell(new NicFaultDaemon.SetMode(mode));
    RequesterMatch owner = RequesterMatch.exact(SriovNicTest.MH);
    SriovNicTest.assign(rig, 0, owner);
    ActorRef<UdpSender.Command> sender = SriovNicTest.testKit.spawn(
        UdpSender.create(p + "tx", rig.mh(), SriovNicTest.NIC, SriovNicTest.FABRIC.tdf()), p + "tx");
    daemon.tell(new NicFaultDaemon.OpenVf(0, owner.encode(), 0, sender));
    TestProbe<UdpSender.SendDone> done = SriovNicTest.testKit.createTestProbe();
    sender.tell(new UdpSender.Start(SendPlan.of(SriovNicTest.NIC, 0, rig.map().vfBar(0), 0, 0x10_0000L, COUNT, 0),
        done.ref()));

    TestProbe<UdpSender.SenderStatus> status = SriovNicTest.testKit.createTestProbe();
    status.awaitAssert(Duration.ofSeconds(10), Duration.ofMillis(5), () -> {
      sender.tell(new UdpSender.GetStatus(status.ref()));
      assertTrue(status.receiveMessage().completed() >= 10);
      return null;
    });
    rig.nic().tell(new SriovNic.HangFirmware(0)); // at once: wherever the loop stands

    UdpSender.SendDone d = done.receiveMessage(Duration.ofSeconds(30));
    TestProbe<ExternalReceiver.FramesReached> reached = SriovNicTest.testKit.createTestProbe();
    rig.receiver().tell(new ExternalReceiver.AwaitFrames(COUNT - (mode == McpMode.GM ? 1 : 0), reached.ref()));
    reached.receiveMessage(Duration.ofSeconds(10));
    TestProbe<ReceiverReport> report = SriovNicTest.testKit.createTestProbe();
    rig.receiver().tell(new ExternalReceiver.GetReport(report.ref()));
    TestProbe<NicFaultDaemon.NicRecoveries> rec = SriovNicTest.testKit.createTestProbe();
    NicFaultDaemon.NicRecoveries recoveries = rec.awaitAssert(Duration.ofSeconds(5), () -> {
      daemon.tell(new NicFaultDaemon.GetRecoveries(rec.ref()));
      NicFaultDaemon.NicRecoveries r = rec.receiveMessage();
      assertEquals(1, r.breakdowns().size());
      return r;
    });
    return new Run(report.receiveMessage(), SriovNicTest.stream(rig.receiver(), 0, COUNT), recoveries, d);
  }

  static Map<String, Long> firstAt(List<RecoveryEvent> events) {
    return events.stream().collect(Collectors.toMap(RecoveryEvent::step, RecoveryEvent::at, (a, b) -> a, TreeMap::new));
  }

  @Test
  void shouldDeliverEveryPacketOnceInOrderWithARecoveryPauseWhenFtgmRecoversTheHungNic() {
    Run run = hangMidStream("h", McpMode.FTGM);

    assertEquals("", run.done().error());
    assertEquals(COUNT, run.done().completed());
    ReceiverReport r = run.report();
    assertEquals(COUNT, r.frames());
    assertEquals(0, r.duplicates());
    assertEquals(0, r.outOfOrder());
    StreamSummary s = run.stream();
    assertEquals(COUNT, s.uniqueBelowDue(), "every sequence number once, in order");

    RecoveryBreakdown b = run.recoveries().breakdowns().get(0);
    long lastArrival = s.model().origin() + s.model().at()[s.model().at().length - 1];
    // The last packet was sent at least the largest latency before it arrived.
    assertTrue(b.faultAt() < lastArrival - s.latencyMax(), "the hang came mid-stream");
    Map<String, Long> at = firstAt(run.recoveries().events());
    // the chain: hang, watchdog (<= one L_timer interval + the watchdog), MSI-X across the switch, daemon
    long hung = at.get(RecoveryEvent.FAULT_ACTIVATED);
    long interrupt = at.get(RecoveryEvent.INTERRUPT);
    long watchdog = FTGM.timing().watchdogNs();
    assertTrue(interrupt - hung > watchdog - FTGM.timing().lTimerIntervalNs() && interrupt - hung < watchdog + 10_000,
        "interrupt " + (interrupt - hung) + " ns after the hang");
    assertEquals(interrupt + FTGM.interruptLatencyNs(), at.get(RecoveryEvent.DAEMON_WOKEN));
    assertEquals(b.daemonWokenAt() - hung, b.detectionNs());
    assertEquals(FTGM.magicWordWaitNs() + FTGM.cardRestoreNs() + FTGM.faultEventPostNs(), b.daemonNs());
    assertEquals(1, b.openPorts());
    long perPort = b.perProcessNs().get(0);
    assertTrue(perPort >= FTGM.portHandlerNs() && perPort <= FTGM.portHandlerNs() + FTGM.tokenRestoreNs(),
        "per-port " + perPort);
    assertEquals(b.detectionNs() + b.daemonNs() + perPort, b.totalNs());
    // the application sees a pause: one gap as long as the recovery
    long longest = s.model().gapMax();
    assertTrue(longest >= b.daemonNs() + perPort, "longest gap " + longest + " ns");
  }

  @Test
  void shouldLoseThePacketTheNicHadNotSentWhenGmOnlyReloadsTheCard() {
    Run run = hangMidStream("g", McpMode.GM);

    ReceiverReport r = run.report();
    assertEquals(COUNT - 1, r.frames(), "GM keeps no copy: the descriptor the hung NIC held is lost");
    assertEquals(0, r.duplicates());
    assertEquals(COUNT - 1, run.stream().uniqueBelowDue(), "one sequence number never arrived");
    assertTrue(run.recoveries().events().stream().anyMatch(e -> e.step().equals(RecoveryEvent.PORT_REOPENED)
        && e.detail().contains("1 dropped")));
  }
}
