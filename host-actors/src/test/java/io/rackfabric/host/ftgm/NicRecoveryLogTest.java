package io.rackfabric.host.ftgm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.nic.McpFirmware;
import io.rackfabric.host.nic.McpMode;
import io.rackfabric.host.nic.UdpSender;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NicRecoveryLogTest {

  static FaultToleranceDaemon.Recovery recovery(long interruptAt, boolean falseAlarm) {
    return new FaultToleranceDaemon.Recovery(McpFirmware.Interrupt.WATCHDOG, interruptAt, interruptAt + 10,
        interruptAt + 1_000, falseAlarm, falseAlarm ? List.of() : List.of(0));
  }

  final NicRecoveryLog log = new NicRecoveryLog("nic");

  @Test
  void shouldListTheStepsInModelTimeOrderWhenTheyCameOutOfOrder() {
    log.interrupted(500);
    log.hungAt(100);
    log.reopened(new UdpSender.PortReopened("ch1", 0, 1_000, 2_000, 3, 0));

    NicFaultDaemon.NicRecoveries r = log.snapshot(McpMode.FTGM, true);

    assertEquals(List.of(RecoveryEvent.FAULT_ACTIVATED, RecoveryEvent.INTERRUPT, RecoveryEvent.PORT_REOPENED),
        r.events().stream().map(RecoveryEvent::step).toList());
    assertEquals("ch1: 3 resent, 0 dropped", r.events().get(2).detail());
    assertTrue(r.recovering());
  }

  @Test
  void shouldMeasureFromTheHangWhenTheMagicWordSaidWhen() {
    log.hungAt(100);

    RecoveryBreakdown b = log.finish(McpMode.FTGM, List.of(recovery(500, false)), () -> List.of(3_000L));

    assertEquals(100, b.faultAt());
    assertEquals(2_900, b.totalNs());
    assertEquals(List.of(b), log.snapshot(McpMode.FTGM, false).breakdowns());
  }

  @Test
  void shouldBreakEachRecoveryDownOnceAndSkipFalseAlarmsWhenAskedAgain() {
    List<String> taken = new ArrayList<>();
    List<FaultToleranceDaemon.Recovery> recoveries = List.of(recovery(50, true), recovery(500, false));

    RecoveryBreakdown first = log.finish(McpMode.GM, recoveries, () -> {
      taken.add("first");
      return List.of();
    });
    RecoveryBreakdown again = log.finish(McpMode.GM, recoveries, () -> {
      taken.add("again");
      return List.of();
    });

    assertEquals(500, first.faultAt(), "no hang reported: from the interrupt");
    assertNull(again);
    assertEquals(List.of("first"), taken, "the reopenings are taken only for a new breakdown");
    assertFalse(log.snapshot(McpMode.GM, false).recovering());
  }
}
