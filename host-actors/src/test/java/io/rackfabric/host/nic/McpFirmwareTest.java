package io.rackfabric.host.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.time.EventQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The firmware loop on a driven clock: L_timer, the spare watchdog, a hang. */
class McpFirmwareTest {

  static final McpTiming TIMING = new McpTiming(3_000, 400, 1_000, 790_000, 810_000, 5_000_000);

  record Raised(McpFirmware.Interrupt cause, long at) {}

  static final class Card implements McpFirmware.Hardware, McpFirmware.Host {
    final EventQueue clock = new EventQueue();
    final List<Raised> interrupts = new ArrayList<>();
    final List<McpPacket> sent = new ArrayList<>();
    final McpFirmware mcp = new McpFirmware("nic", McpMode.FTGM, TIMING, clock, this, this);

    @Override
    public void dma(long tag, boolean toHost, long hostAddress, int length, long at) {
      clock.at(at + 1_000, () -> mcp.dmaCompleted(tag, at + 1_000));
    }

    @Override
    public void transmit(McpPacket packet, long at) {
      sent.add(packet);
    }

    @Override
    public void post(int port, PortEvent event, long at) { }

    @Override
    public void interrupt(McpFirmware.Interrupt cause, long at) {
      interrupts.add(new Raised(cause, at));
    }
  }

  static Card loaded() {
    Card c = new Card();
    c.mcp.reload(0);
    c.mcp.restoreTables(Set.of(0), Set.of("remote"), 0);
    assertTrue(c.mcp.openPort(0, 0));
    return c;
  }

  @Test
  void shouldCallLTimerAndNeverFireTheWatchdogWhenTheLoopRuns() {
    Card c = loaded();
    c.clock.runUntil(100_000_000);
    assertEquals(126, c.mcp.lTimerCalls()); // one per 790us + 1us
    assertTrue(c.interrupts.isEmpty());
    assertTrue(c.mcp.watchdog().armed());
  }

  @Test
  void shouldFireTheWatchdogExactlyOneIntervalAfterTheLastLTimerWhenTheLoopHangs() {
    Card c = loaded();
    c.clock.runUntil(5_000_000);
    c.mcp.inject(FaultCategory.INTERFACE_HANG, FaultPoint.TOKEN_TAKEN);
    c.mcp.postSend(new SendToken(0, "remote", 0, 0, 1, 64, 0x1000), 5_000_000);
    assertTrue(c.mcp.hung());
    long last = c.mcp.lastLTimerAt();
    long calls = c.mcp.lTimerCalls();
    c.clock.runUntil(last + TIMING.watchdogNs() - 1);
    assertTrue(c.interrupts.isEmpty());
    c.clock.runUntil(last + TIMING.watchdogNs());
    assertEquals(List.of(new Raised(McpFirmware.Interrupt.WATCHDOG, last + TIMING.watchdogNs())), c.interrupts);
    c.clock.runUntil(50_000_000);
    assertEquals(calls, c.mcp.lTimerCalls(), "the hung loop calls L_timer no more");
    assertEquals(1, c.interrupts.size(), "one interrupt until the card is reset");
    assertTrue(c.sent.isEmpty());
  }

  @Test
  void shouldClearTheMagicWordOnlyWhileTheLoopRuns() {
    Card c = loaded();
    c.mcp.writeMagicWord(0);
    c.clock.runUntil(TIMING.lTimerIntervalNs() + TIMING.lTimerNs());
    assertTrue(c.mcp.magicWordCleared());
    c.mcp.inject(FaultCategory.INTERFACE_HANG, FaultPoint.TOKEN_TAKEN);
    c.mcp.postSend(new SendToken(0, "remote", 0, 0, 1, 64, 0x1000), c.clock.now());
    c.mcp.writeMagicWord(c.clock.now());
    c.clock.runUntil(10_000_000);
    assertFalse(c.mcp.magicWordCleared());
  }

  @Test
  void shouldSendWithTheHostsSequenceNumberAndResendWhenNoAckComesUnderFtgm() {
    Card c = loaded();
    c.mcp.postSend(new SendToken(0, "remote", 2, 41, 7, 64, 0x1000), 0);
    c.clock.runUntil(1_000_000);
    assertEquals(1, c.sent.size());
    assertEquals(41, c.sent.get(0).seq());
    c.clock.runUntil(7_000_000);
    assertEquals(2, c.sent.size(), "Go-Back-N resent it from L_timer");
    assertEquals(c.sent.get(0), c.sent.get(1));
  }
}
