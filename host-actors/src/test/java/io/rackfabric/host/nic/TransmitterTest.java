package io.rackfabric.host.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TransmitterTest {

  record Sent(McpPacket packet, long at) {}

  static final class Wire implements McpFirmware.Hardware {
    final List<Sent> sent = new ArrayList<>();

    @Override
    public void dma(long tag, boolean toHost, long hostAddress, int length, long at) { }

    @Override
    public void transmit(McpPacket packet, long at) {
      sent.add(new Sent(packet, at));
    }
  }

  static final McpPacket DATA = new McpPacket(McpPacket.Kind.DATA, "remote", 3, "nic", 1, 8, 42, 64, false, false);

  @Test
  void shouldAnswerADataPacketToWhereItCameFromWhenSendingControl() {
    Wire w = new Wire();
    Transmitter t = new Transmitter("nic", w, new InjectedFault());
    t.addRoutes(Set.of("remote"));
    t.control(McpPacket.Kind.NACK, DATA, 6, 500);
    assertEquals(List.of(new Sent(new McpPacket(McpPacket.Kind.NACK, "nic", 1, "remote", 3, 6, 0, 0, false, false),
        500)), w.sent);
  }

  @Test
  void shouldCountAndDropPacketsWhenTheirNodeHasNoRoute() {
    Wire w = new Wire();
    Transmitter t = new Transmitter("nic", w, new InjectedFault());
    McpPacket out = new McpPacket(McpPacket.Kind.DATA, "nic", 1, "remote", 3, 0, 1, 64, false, false);
    t.data(out, 0);
    assertEquals(1, t.unroutable());
    t.addRoutes(Set.of("remote"));
    t.data(out, 10);
    t.clear();
    t.data(out, 20);
    assertEquals(List.of(new Sent(out, 10)), w.sent);
    assertEquals(2, t.unroutable());
  }

  @Test
  void shouldSendDataAsTheInjectedFaultLeavesIt() {
    Wire w = new Wire();
    InjectedFault f = new InjectedFault();
    Transmitter t = new Transmitter("nic", w, f);
    t.addRoutes(Set.of("remote"));
    f.arm(FaultCategory.MESSAGES_CORRUPTED, FaultPoint.SEND_DMA_DONE);
    f.fire(FaultPoint.SEND_DMA_DONE, 0);
    McpPacket out = new McpPacket(McpPacket.Kind.DATA, "nic", 1, "remote", 3, 0, 1, 64, false, false);
    t.data(out, 0);
    t.data(out, 1);
    assertTrue(w.sent.get(0).packet().corrupted());
    assertEquals(out, w.sent.get(1).packet());
  }
}
