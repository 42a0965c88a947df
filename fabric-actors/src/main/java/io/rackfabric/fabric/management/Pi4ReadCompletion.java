package io.rackfabric.fabric.management;

/**
 * A PI-4 read completion, with data or with error (AS-FM section 3.2), back along its request's
 * route with its traffic class. On the wire: the routing header, one register of ours ([31:16]
 * transaction number, [15:8] status, [3:0] dwords), then the data: 12 bytes plus 4 per register.
 * The error's text is for people and the fabric manager's log; the wire carries only the status.
 */
public record Pi4ReadCompletion(Route route, int trafficClass, int transaction, ReadResult result)
    implements ManagementPacket {

  static final int HEADER_BYTES = 4;

  public Pi4ReadCompletion {
    ManagementPacket.checkTrafficClass(trafficClass);
    ManagementPacket.checkTransaction(transaction);
    if (result == null) {
      throw new IllegalArgumentException("a completion needs a result");
    }
  }

  @Override
  public PacketKind kind() {
    return result.ok() ? PacketKind.PI4_COMPLETION_WITH_DATA : PacketKind.PI4_COMPLETION_WITH_ERROR;
  }

  @Override
  public int sizeBytes() {
    return ROUTE_HEADER_BYTES + HEADER_BYTES + (result.ok() ? 4 * result.data().length : 0);
  }
}
