package io.rackfabric.host.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HostDmaTest {

  record Started(long tag, boolean toHost, long hostAddress, int length, long at) {}

  static final class Engine implements McpFirmware.Hardware {
    final List<Started> started = new ArrayList<>();

    @Override
    public void dma(long tag, boolean toHost, long hostAddress, int length, long at) {
      started.add(new Started(tag, toHost, hostAddress, length, at));
    }

    @Override
    public void transmit(McpPacket packet, long at) {}
  }

  final Engine engine = new Engine();
  final HostDma dma = new HostDma(engine);
  final SendToken send = new SendToken(1, "remote", 2, 0, 7, 64, 0x1000);
  final HostDma.Receive receive = new HostDma.Receive(GoBackNReceiverTest.data(0), new ReceiveToken(0, 0x2000, 128),
      GoBackNReceiverTest.data(0).streamAtReceiver(McpMode.FTGM));

  @Test
  void shouldFindEachJobByItsTagWhenItsDmaEnds() {
    dma.take(send);
    dma.startSend(100);
    dma.startReceive(receive, 200);

    assertEquals(List.of(new Started(0, false, 0x1000, 64, 100), new Started(1, true, 0x2000, 64, 200)),
        engine.started);
    assertEquals(receive, dma.finish(1));
    assertEquals(send, dma.finish(0));
    assertNull(dma.finish(0), "a tag ends once");
  }

  @Test
  void shouldHoldOneSendUntilItIsSentWhenTaken() {
    assertFalse(dma.sending());
    dma.take(send);
    assertTrue(dma.sending());
    dma.sent();
    assertFalse(dma.sending());
  }

  @Test
  void shouldForgetEveryJobWhenTheCardIsReset() {
    dma.take(send);
    dma.startSend(100);

    dma.clear();

    assertFalse(dma.sending());
    assertNull(dma.finish(0), "a DMA that ends after the reset finds no job");
  }
}
