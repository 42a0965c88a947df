package io.rackfabric.host.ftgm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.nic.FaultCategory;
import io.rackfabric.host.nic.FaultPoint;
import io.rackfabric.host.nic.McpFirmware;
import io.rackfabric.host.nic.McpMode;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Detection and recovery of a hung NIC, and FTGM Table 3 out of the run's events. */
class FtgmRecoveryTest {

  static final FtgmSettings S = FtgmScenarioTest.SETTINGS;

  static FtgmTestbed hangWithPorts(int ports) {
    FtgmTestbed bed = new FtgmTestbed("nic", McpMode.FTGM, S, FtgmScenarioTest.NIC, ports);
    bed.start(0);
    bed.traffic(20, 100_000, 100_000, false);
    bed.inject("nic", FaultCategory.INTERFACE_HANG, FaultPoint.PACKET_SENT, 500_000);
    assertTrue(bed.runUntilSettled(20_000_000_000L), "settled");
    return bed;
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 4})
  void shouldAddOnePerProcessRecoveryPerOpenPortWhenTheNicHangs(int ports) {
    FtgmTestbed bed = hangWithPorts(ports);
    RecoveryBreakdown b = bed.breakdown("nic").orElseThrow();
    assertEquals(ports, b.openPorts());
    assertEquals(ports, b.perProcessNs().size());
    long wd = S.timing().watchdogNs();
    assertTrue(b.detectionNs() > S.interruptLatencyNs() && b.detectionNs() <= wd + S.interruptLatencyNs(),
        b.render());
    assertEquals(S.magicWordWaitNs() + S.cardRestoreNs() + ports * S.faultEventPostNs(), b.daemonNs(), b.render());
    for (long p : b.perProcessNs()) {
      assertTrue(p >= S.portHandlerNs() && p < S.portHandlerNs() + 1_000_000, b.render());
    }
    assertEquals(b.detectionNs() + b.daemonNs() + b.perProcessNs().stream().mapToLong(Long::longValue).sum(),
        b.totalNs(), b.render());
    assertEquals(0, bed.log().lost());
    assertEquals(0, bed.log().duplicates());
    assertEquals(0, bed.log().outOfOrder());
  }

  @Test
  void shouldConfirmTheHangWithTheMagicWordBeforeResettingWhenTheWatchdogFires() {
    FtgmTestbed bed = hangWithPorts(1);
    List<FaultToleranceDaemon.Recovery> rs = bed.recoveries("nic");
    assertEquals(1, rs.size());
    FaultToleranceDaemon.Recovery r = rs.get(0);
    assertEquals(McpFirmware.Interrupt.WATCHDOG, r.cause());
    assertEquals(r.interruptAt() + S.interruptLatencyNs(), r.wokenAt());
    assertTrue(!r.falseAlarm());
    assertEquals(List.of(0), r.ports());
    assertTrue(bed.recoveries(FtgmTestbed.REMOTE).isEmpty(), "the server's card never stopped");
  }

  @Test
  void shouldRecoverTheServerCardWhenACorruptedPacketHangsIt() {
    FaultOutcome o = FaultCampaign.inject(S.withTraffic(2, 10, 100_000), FtgmScenarioTest.NIC, McpMode.FTGM, "nic",
        FaultCategory.REMOTE_INTERFACE_HANG, FaultPoint.SEND_DMA_DONE, 300_000, 0, 9, false);
    assertTrue(o.hang() && o.detected() && o.recovered(), o.toString());
    assertEquals(FtgmTestbed.REMOTE, o.breakdowns().get(0).nic());
    assertEquals(0, o.lost() + o.duplicated() + o.outOfOrder(), o.toString());
  }

  @Test
  void shouldRecoverWithoutLossWhenTheFirmwareRestartsItself() {
    FaultOutcome o = FaultCampaign.inject(S.withTraffic(2, 10, 100_000), FtgmScenarioTest.NIC, McpMode.FTGM, "nic",
        FaultCategory.MCP_RESTART, FaultPoint.TOKEN_TAKEN, 300_000, 0, 10, false);
    assertTrue(o.hang() && o.detected() && o.recovered(), o.toString());
    assertEquals(0, o.lost() + o.duplicated() + o.outOfOrder(), o.toString());
  }

  @Test
  void shouldResendACorruptedPacketWithoutAnyRecoveryWhenMessagesAreCorrupted() {
    FaultOutcome o = FaultCampaign.inject(S.withTraffic(2, 10, 100_000), FtgmScenarioTest.NIC, McpMode.GM, "nic",
        FaultCategory.MESSAGES_CORRUPTED, FaultPoint.SEND_DMA_DONE, 300_000, 0, 11, false);
    assertTrue(o.activated() && o.completed() && !o.hang() && o.breakdowns().isEmpty(), o.toString());
    assertEquals(1, o.corruptDropped());
    assertEquals(0, o.lost() + o.duplicated() + o.outOfOrder(), o.toString());
  }

  @Test
  void shouldRecordEveryRecoveryStepInModelTimeOrderWhenTheNicHangs() {
    FtgmTestbed bed = hangWithPorts(2);
    FaultOutcome o = FaultCampaign.outcome(bed, 0, 1, FaultCategory.INTERFACE_HANG, FaultPoint.PACKET_SENT, 500_000,
        true);
    RecoveryBreakdown b = o.breakdowns().get(0);
    List<String> steps = o.events().stream().map(RecoveryEvent::step).toList();
    assertEquals(List.of(RecoveryEvent.FAULT_ACTIVATED, RecoveryEvent.INTERRUPT, RecoveryEvent.DAEMON_WOKEN,
        RecoveryEvent.HANG_CONFIRMED, RecoveryEvent.CARD_RESET, RecoveryEvent.FIRMWARE_RELOADED,
        RecoveryEvent.TABLES_RESTORED, RecoveryEvent.FAULT_DETECTED_POSTED, RecoveryEvent.FAULT_DETECTED_POSTED,
        RecoveryEvent.PORT_REOPENED, RecoveryEvent.PORT_REOPENED), steps);
    assertEquals(b.faultAt(), o.events().get(0).at());
    assertEquals(b.daemonWokenAt(), o.events().get(2).at());
    assertEquals(b.daemonDoneAt(), o.events().get(8).at());
    assertEquals(b.portsRecoveredAt(), List.of(o.events().get(9).at(), o.events().get(10).at()));
    assertEquals(List.of(0, 1), List.of(o.events().get(9).port(), o.events().get(10).port()));
    assertEquals("watchdog", o.events().get(1).detail());
  }

  @Test
  void shouldDetectAndRecoverAHangThatComesAfterTheFirstTimerPeriodWhenTheTrafficIsLong() {
    FtgmSettings s = S.withTraffic(2, 40, 100_000);
    long late = 3 * s.timing().lTimerIntervalNs();
    FaultOutcome o = FaultCampaign.inject(s, FtgmScenarioTest.NIC, McpMode.FTGM, "nic", FaultCategory.INTERFACE_HANG,
        FaultPoint.TOKEN_TAKEN, late, 0, 12, false);
    assertTrue(o.hang() && o.detected() && o.recovered(), o.toString());
    assertTrue(o.breakdowns().get(0).faultAt() >= late, o.toString());
    assertEquals(0, o.lost() + o.duplicated() + o.outOfOrder(), o.toString());
  }

  @Test
  void shouldSettleWithOneNackPerGapWhenGmReopensTheCardsPortsOneByOne() {
    FtgmSettings s = S.withTraffic(2, 40, 100_000);
    FtgmTestbed bed = new FtgmTestbed("nic", McpMode.GM, s, FtgmScenarioTest.NIC, 2);
    bed.start(0);
    bed.traffic(40, 100_000, 100_000, false);
    bed.inject("nic", FaultCategory.INTERFACE_HANG, FaultPoint.SEND_DMA_DONE, 133_398);
    assertTrue(bed.runUntilSettled(s.settleLimitNs()), "settled");
    // the server's packets for the port still closed are dropped while the other port takes its
    // stream: a NACK for each of them would make the server resend everything each time
    assertTrue(bed.card("nic").nacksSent() <= 10, "nacks=" + bed.card("nic").nacksSent());
    assertTrue(bed.clock().executed() < 1_000_000, "events=" + bed.clock().executed());
  }
}
