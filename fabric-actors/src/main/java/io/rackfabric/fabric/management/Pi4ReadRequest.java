package io.rackfabric.fabric.management;

/**
 * A PI-4 read request (AS-FM section 3.2, Fig. 7): {@code dwords} 32-bit registers (the Request
 * Code, up to eight) from {@code offset} of {@code aperture}; the transaction number matches the
 * completion to it. On the wire: the routing header, then two registers of ours, [31:16]
 * transaction number, [15:12] aperture, [3:0] dwords - 1; then the offset. 16 bytes.
 */
public record Pi4ReadRequest(Route route, int trafficClass, int transaction, int aperture, long offset, int dwords)
    implements ManagementPacket {

  /** Transaction numbers are 16 bits (our choice: the paper's Fig. 9 shows only small ones). */
  public static final int MAX_TRANSACTION = 0xFFFF;
  static final int HEADER_BYTES = 8;

  public Pi4ReadRequest {
    ManagementPacket.checkTrafficClass(trafficClass);
    ManagementPacket.checkTransaction(transaction);
    if (aperture < 0 || aperture >= ConfigurationSpace.APERTURES) {
      throw new IllegalArgumentException("aperture=" + aperture + " not in [0," + (ConfigurationSpace.APERTURES - 1) + "]");
    }
    if (offset < 0 || offset > 0xFFFF_FFFCL) {
      throw new IllegalArgumentException(String.format("offset=%Xh not in [0,FFFFFFFCh]", offset));
    }
    if (dwords < 1 || dwords > ConfigurationSpace.MAX_DWORDS) {
      throw new IllegalArgumentException("dwords=" + dwords + " not in [1," + ConfigurationSpace.MAX_DWORDS + "]");
    }
  }

  @Override
  public PacketKind kind() {
    return PacketKind.PI4_READ_REQUEST;
  }

  @Override
  public int sizeBytes() {
    return ROUTE_HEADER_BYTES + HEADER_BYTES;
  }

  /** What the device at the route's end answers, from its configuration space. */
  public Pi4ReadCompletion answer(ReadResult result) {
    return new Pi4ReadCompletion(route, trafficClass, transaction, result);
  }
}
