package io.rackfabric.host.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class McpTimingTest {

  @Test
  void shouldAddTheFtgmExtraToThePacketTimeOnlyWhenTheModeIsFtgm() {
    McpTiming t = McpFirmwareTest.TIMING;

    assertEquals(3_000, t.packetNs(McpMode.GM));
    assertEquals(3_400, t.packetNs(McpMode.FTGM));
  }

  @Test
  void shouldRejectAWatchdogNoLongerThanTheTimerIntervalWhenBuilt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new McpTiming(3_000, 400, 1_000, 790_000, 791_000, 5_000_000));
    assertEquals("watchdogNs=791000 must exceed lTimerIntervalNs=790000 + lTimerNs=1000", e.getMessage());
  }
}
