package io.rackfabric.fabric.management;

import java.util.List;

/**
 * One message of the primary fabric manager's topology database sent to the secondary (issue 15:
 * "the secondary takes over with the topology database it kept up to date"; AS-FM leaves how to
 * the implementer): a segment of a full copy or of a delta, source-routed like the heartbeats.
 * An update (the database after the discovery, or the change one rediscovery made) is cut into
 * {@code segments} messages that each fit the fabric's max payload; messages are numbered one
 * after the other across updates, so the secondary sees a gap ({@link DatabaseReplica}).
 *
 * <p>On the wire: the routing header, four registers (message number, update number, segment and
 * segment count, full flag and entry counts), then per device 12 bytes (serial number; type, port
 * count, max packet size: the general information the discovery read), per port 20 bytes (serial
 * number; number, kind and virtual switch; widths and speeds; states), per link 24 bytes (its two
 * ends, serial and port each), per device removed 8 bytes (its serial number; they come first).
 * Routes are the primary's own and are not sent: devices carry the
 * empty route. Counted on the wire meters under {@link #KIND_CODE}.
 *
 * @param number the message's number, from 0, one more for every message sent
 * @param update the update it belongs to, from 0
 * @param segment its place in the update, from 0
 * @param segments the update's message count
 * @param full whether the update is a full copy (the secondary starts afresh from it) or a delta
 * @param removed serial numbers of devices the primary removed (each with its ports and links)
 */
public record FmDatabaseUpdate(long number, long update, int segment, int segments, boolean full,
    List<TopologyDatabase.Device> devices, List<TopologyDatabase.Port> ports, List<TopologyDatabase.Link> links,
    List<Long> removed) implements FmPayload {

  public static final int KIND_CODE = FmHeartbeat.KIND_CODE + 1;
  static final int FIXED_BYTES = ManagementPacket.ROUTE_HEADER_BYTES + 16;
  static final int DEVICE_BYTES = 12;
  static final int PORT_BYTES = 20;
  static final int LINK_BYTES = 24;
  static final int REMOVED_BYTES = 8;

  public FmDatabaseUpdate {
    if (segments < 1 || segment < 0 || segment >= segments) {
      throw new IllegalArgumentException("segment=" + segment + " not in [0," + segments + ")");
    }
    devices = List.copyOf(devices);
    ports = List.copyOf(ports);
    links = List.copyOf(links);
    removed = removed == null ? List.of() : List.copyOf(removed);
  }

  /** Its entries as a delta (a segment of a full copy is not a full copy by itself). */
  DatabaseDelta entries() {
    return new DatabaseDelta(false, devices, ports, links, removed);
  }

  /** Whether it is the last message of its update. */
  public boolean last() {
    return segment == segments - 1;
  }

  @Override
  public int sizeBytes() {
    return FIXED_BYTES + removed.size() * REMOVED_BYTES + devices.size() * DEVICE_BYTES + ports.size() * PORT_BYTES + links.size() * LINK_BYTES;
  }

  @Override
  public int kindCode() {
    return KIND_CODE;
  }
}
