package io.rackfabric.fabric.management;

/**
 * The primary fabric manager's heartbeat to the secondary (AS-FM section 4: "if the primary FM
 * fails, the secondary one takes over"; how the secondary learns of it is ours): a management
 * packet source-routed from the primary's endpoint to the secondary's along the route its
 * discovery found, every heartbeat interval of model time. It also carries the number of the last
 * {@link FmDatabaseUpdate} message the primary sent (-1: none yet), so the secondary sees a gap
 * even when the lost messages were the last ones ({@link DatabaseReplica#onHeartbeat}). On the
 * wire: the routing header, a 64-bit sequence number and the 32-bit message number, 20 bytes.
 * Counted on the wire meters under {@link #KIND_CODE}.
 */
public record FmHeartbeat(long sequence, long databaseNumber) implements FmPayload {

  public static final int KIND_CODE = ElectionClaim.KIND_CODE + 1;

  @Override
  public int sizeBytes() {
    return ManagementPacket.ROUTE_HEADER_BYTES + 8 + 4;
  }

  @Override
  public int kindCode() {
    return KIND_CODE;
  }
}
