package io.rackfabric.fabric.management;

/**
 * The secondary's request for a full copy of the primary's topology database, after it saw a gap
 * in the numbers of the messages that carry it ({@link DatabaseReplica}): sent back along the way
 * the message that showed the gap came. On the wire: the routing header and the number of the next
 * message the secondary expected, 16 bytes. Counted on the wire meters under {@link #KIND_CODE}.
 */
public record FmDatabaseResync(long expected) implements FmPayload {

  public static final int KIND_CODE = FmDatabaseUpdate.KIND_CODE + 1;

  @Override
  public int sizeBytes() {
    return ManagementPacket.ROUTE_HEADER_BYTES + 8;
  }

  @Override
  public int kindCode() {
    return KIND_CODE;
  }
}
