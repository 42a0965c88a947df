package io.rackfabric.fabric.management;

/**
 * A fabric-manager candidate's claim (AS-FM section 2.2: "PI-0:0, for FM election", allowed on a
 * DL_Protected port): its priority (0 the first choice) and serial number. It is flooded switch to
 * switch, one hop at a time ({@link ElectionFlood}), not source-routed. On the wire: the routing
 * header, one register ([7:0] priority) and the serial: 20 bytes. Counted on the wire meters
 * under {@link #KIND_CODE}, after the PI-4/PI-5 kinds.
 */
public record ElectionClaim(int priority, long serial) implements FmPayload {

  public static final int KIND_CODE = PacketKind.values().length;
  static final int BYTES = ManagementPacket.ROUTE_HEADER_BYTES + 4 + 8;

  public ElectionClaim {
    if (priority < 0 || priority > 255) {
      throw new IllegalArgumentException("claim priority=" + priority + " not in [0,255]");
    }
  }

  SpanningTreeCapability.Claim claim() {
    return new SpanningTreeCapability.Claim(priority, serial);
  }

  static ElectionClaim of(SpanningTreeCapability.Claim c) {
    return new ElectionClaim(c.priority(), c.serial());
  }

  @Override
  public int sizeBytes() {
    return BYTES;
  }

  @Override
  public int kindCode() {
    return KIND_CODE;
  }
}
