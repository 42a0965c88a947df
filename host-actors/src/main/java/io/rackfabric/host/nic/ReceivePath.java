package io.rackfabric.host.nic;

import java.util.function.Predicate;

/**
 * {@link McpFirmware}'s receive path for a DATA packet: for an open port, the next in its stream
 * ({@link GoBackNReceiver}) and with a receive buffer of the port's ({@link PortQueues}), it is
 * accepted and DMAed into the buffer ({@link HostDma}); when that DMA ends it is delivered, the
 * stream learns it and the host gets the message in the port's receive queue. A packet without a
 * buffer is counted and left to the sender's Go-Back-N.
 */
final class ReceivePath {

  private final McpMode mode;
  private final PortQueues ports;
  private final GoBackNReceiver receiver;
  private final HostDma dma;
  private final McpFirmware.Host host;
  private long noBuffer;

  ReceivePath(McpMode mode, PortQueues ports, GoBackNReceiver receiver, HostDma dma, McpFirmware.Host host) {
    this.mode = mode;
    this.ports = ports;
    this.receiver = receiver;
    this.dma = dma;
    this.host = host;
  }

  /**
   * A DATA packet at model time {@code now}; {@code pass} executes a fault point (false when the
   * loop stopped there). False when the packet's port is closed: the caller counts the drop.
   */
  boolean data(McpPacket p, long now, Predicate<FaultPoint> pass) {
    if (!ports.isOpen(p.toPort())) {
      return false;
    }
    if (!receiver.isNext(p)) {
      return true;
    }
    ReceiveToken token = ports.takeReceive(p.toPort(), p.length());
    if (token == null) {
      noBuffer++; // no buffer: the sender's Go-Back-N resends later
      return true;
    }
    receiver.accepted(p);
    if (!pass.test(FaultPoint.RECEIVE_DMA_STARTED)) {
      return true;
    }
    dma.startReceive(new HostDma.Receive(p, token, p.streamAtReceiver(mode)), now);
    return true;
  }

  /** The receive's DMA into the host's buffer ended at {@code now}: the message is delivered. */
  void delivered(HostDma.Receive r, long now) {
    McpPacket p = r.packet();
    receiver.delivered(r.stream(), p);
    host.post(r.token().port(), new PortEvent.MessageReceived(r.token(), r.stream(), p.seq(), p.payload(),
        p.length()), now);
  }

  /** DATA packets that found no receive buffer. */
  long noBuffer() {
    return noBuffer;
  }
}
