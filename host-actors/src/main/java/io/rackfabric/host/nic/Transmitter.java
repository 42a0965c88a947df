package io.rackfabric.host.nic;

import java.util.Set;
import java.util.TreeSet;

/**
 * The firmware's way onto the link: the routing table the driver loads, and the packets the loop
 * sends, data packets as an injected fault leaves them and ACKs or NACKs built for the data
 * packet they answer. A packet for a node without a route is counted and goes nowhere.
 */
final class Transmitter {

  private final String node;
  private final McpFirmware.Hardware hardware;
  private final InjectedFault fault;
  private final Set<String> routes = new TreeSet<>();
  private long unroutable;

  Transmitter(String node, McpFirmware.Hardware hardware, InjectedFault fault) {
    this.node = node;
    this.hardware = hardware;
    this.fault = fault;
  }

  void addRoutes(Set<String> nodes) {
    routes.addAll(nodes);
  }

  /** The card's memory was lost: no route is left. */
  void clear() {
    routes.clear();
  }

  /** A data packet onto the link at {@code at}. */
  void data(McpPacket packet, long at) {
    send(fault.onWire(packet), at);
  }

  /** An ACK or NACK carrying {@code seq} back to where data packet {@code data} came from. */
  void control(McpPacket.Kind kind, McpPacket data, long seq, long at) {
    send(new McpPacket(kind, node, data.toPort(), data.from(), data.fromPort(), seq, 0, 0, false, false), at);
  }

  long unroutable() {
    return unroutable;
  }

  private void send(McpPacket packet, long at) {
    if (!routes.contains(packet.to())) {
      unroutable++;
      return;
    }
    hardware.transmit(packet, at);
  }
}
