package io.rackfabric.fabric.management;

import io.rackfabric.fabric.link.DataLinkState;

/**
 * A PI-5 event: a device manager tells the fabric manager that one of its ports changed state
 * (AS-FM section 4). On the wire: the routing header, one register of ours ([31:24] event code,
 * [15:8] port, [2:0] new state) and the reporting device's serial number: 20 bytes.
 *
 * @param route the route from the fabric manager to the reporting device (the event travels it
 *     backward)
 */
public record Pi5Event(Route route, int trafficClass, long serial, int port, DataLinkState state)
    implements ManagementPacket {

  static final int BODY_BYTES = 4 + 8;

  public Pi5Event {
    ManagementPacket.checkTrafficClass(trafficClass);
    if (port < 0 || port >= BaselineCapability.MAX_PORTS) {
      throw new IllegalArgumentException("port=" + port + " not in [0," + (BaselineCapability.MAX_PORTS - 1) + "]");
    }
  }

  @Override
  public PacketKind kind() {
    return PacketKind.PI5_EVENT;
  }

  @Override
  public int sizeBytes() {
    return ROUTE_HEADER_BYTES + BODY_BYTES;
  }
}
