package io.rackfabric.fabric.management;

/**
 * A PI-4 write (AS-FM section 3.2): up to eight registers from {@code offset} of {@code aperture};
 * no response. On the wire: the routing header, two registers as a read request's (no transaction
 * number is needed), then the data: 16 bytes plus 4 per register.
 */
public record Pi4Write(Route route, int trafficClass, int aperture, long offset, int[] data)
    implements ManagementPacket {

  static final int HEADER_BYTES = 8;

  public Pi4Write {
    ManagementPacket.checkTrafficClass(trafficClass);
    if (data == null || data.length < 1 || data.length > ConfigurationSpace.MAX_DWORDS) {
      throw new IllegalArgumentException("data of " + (data == null ? 0 : data.length)
          + " registers not in [1," + ConfigurationSpace.MAX_DWORDS + "]");
    }
    data = data.clone();
  }

  @Override
  public int[] data() {
    return data.clone();
  }

  @Override
  public PacketKind kind() {
    return PacketKind.PI4_WRITE;
  }

  @Override
  public int sizeBytes() {
    return ROUTE_HEADER_BYTES + HEADER_BYTES + 4 * data.length;
  }

  /** Applies it to the configuration space of the device it reached. */
  public WriteOutcome applyTo(ConfigurationSpace space) {
    return space.write(aperture, offset, data);
  }
}
