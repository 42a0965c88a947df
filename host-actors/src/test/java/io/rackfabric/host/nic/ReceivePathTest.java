package io.rackfabric.host.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ReceivePathTest {

  record Posted(int port, PortEvent event, long at) {}

  final List<Posted> posted = new ArrayList<>();
  final McpFirmware.Host host = new McpFirmware.Host() {
    @Override
    public void post(int port, PortEvent event, long at) {
      posted.add(new Posted(port, event, at));
    }

    @Override
    public void interrupt(McpFirmware.Interrupt cause, long at) {}
  };
  final HostDmaTest.Engine engine = new HostDmaTest.Engine();
  final HostDma dma = new HostDma(engine);
  final PortQueues ports = new PortQueues();
  final GoBackNReceiver receiver = new GoBackNReceiver(McpMode.FTGM, (kind, data, seq) -> { });
  final ReceivePath path = new ReceivePath(McpMode.FTGM, ports, receiver, dma, host);
  final ReceiveToken buffer = new ReceiveToken(0, 0x2000, 128);

  void openPortZero() {
    ports.addPages(Set.of(0));
    ports.open(0);
  }

  @Test
  void shouldDmaThePacketIntoTheBufferAndDeliverItWhenTheDmaEnds() {
    openPortZero();
    ports.addReceive(buffer);
    McpPacket p = GoBackNReceiverTest.data(0);

    assertTrue(path.data(p, 1_000, point -> true));
    assertEquals(List.of(new HostDmaTest.Started(0, true, 0x2000, 64, 1_000)), engine.started);
    path.delivered((HostDma.Receive) dma.finish(0), 2_000);

    assertEquals(List.of(new Posted(0, new PortEvent.MessageReceived(buffer, p.streamAtReceiver(McpMode.FTGM), 0,
        p.payload(), 64), 2_000)), posted);
  }

  @Test
  void shouldSayDroppedWhenThePortIsClosed() {
    assertFalse(path.data(GoBackNReceiverTest.data(0), 1_000, point -> true));
    assertTrue(engine.started.isEmpty());
  }

  @Test
  void shouldCountAndLeaveItToGoBackNWhenThePortHasNoBuffer() {
    openPortZero();

    assertTrue(path.data(GoBackNReceiverTest.data(0), 1_000, point -> true));

    assertEquals(1, path.noBuffer());
    assertTrue(engine.started.isEmpty());
  }

  @Test
  void shouldStartNoDmaWhenTheLoopStopsAtTheReceiveFaultPoint() {
    openPortZero();
    ports.addReceive(buffer);
    List<FaultPoint> executed = new ArrayList<>();

    path.data(GoBackNReceiverTest.data(0), 1_000, point -> executed.add(point) && false);

    assertEquals(List.of(FaultPoint.RECEIVE_DMA_STARTED), executed);
    assertTrue(engine.started.isEmpty());
  }
}
