package io.rackfabric.fabric.management;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The primary fabric manager's side of keeping the secondary's topology database up to date: a
 * full copy first (and again whenever the secondary asks, {@link #resync}), then after every change
 * a delta against what it sent last ({@link DatabaseDelta}: devices removed since, devices it had
 * not sent, ports whose record changed, links it had not sent), cut into {@link FmDatabaseUpdate} messages that each fit {@code maxPayload} bytes. Plain: the
 * endpoint puts the messages on the wire. Not thread-safe.
 */
public final class DatabaseShipper {

  /** What the primary sent: updates (full copies, deltas), messages and their bytes. */
  public record Counts(long fullCopies, long deltas, long messages, long bytes, long resyncsAsked)
      implements io.rackfabric.fabric.wire.WireMessage {}

  private final int maxPayload;
  private final Set<Long> sentDevices = new HashSet<>();
  private final Map<TopologyDatabase.End, TopologyDatabase.Port> sentPorts = new HashMap<>();
  private final Set<TopologyDatabase.Link> sentLinks = new HashSet<>();
  private boolean fullDue = true;
  private long nextNumber;
  private long nextUpdate;
  private long fullCopies;
  private long deltas;
  private long bytes;
  private long resyncsAsked;

  /** @param maxPayload the fabric's max payload in bytes: no message is larger */
  public DatabaseShipper(int maxPayload) {
    if (maxPayload < FmDatabaseUpdate.FIXED_BYTES + FmDatabaseUpdate.LINK_BYTES) {
      throw new IllegalArgumentException("maxPayload=" + maxPayload + " is below one entry's message ("
          + (FmDatabaseUpdate.FIXED_BYTES + FmDatabaseUpdate.LINK_BYTES) + " bytes)");
    }
    this.maxPayload = maxPayload;
  }

  /** The secondary asked for a full copy: the next update is one. */
  public void resync() {
    resyncsAsked++;
    fullDue = true;
  }

  /**
   * The messages that bring the secondary from what was sent last to {@code db}: a full copy when
   * one is due, else a delta; none when nothing changed.
   */
  public List<FmDatabaseUpdate> changes(TopologyDatabase db) {
    DatabaseDelta delta = delta(db);
    return delta == null ? List.of() : cut(delta);
  }

  /**
   * The change from what was handed on last to {@code db}: a full copy when one is due, else a
   * delta (devices removed since, devices and links not handed on, ports whose record changed);
   * null when nothing changed. What it gives counts as handed on.
   */
  public DatabaseDelta delta(TopologyDatabase db) {
    boolean full = fullDue;
    if (full) {
      sentDevices.clear();
      sentPorts.clear();
      sentLinks.clear();
    }
    List<Long> removed = new ArrayList<>();
    for (long serial : sentDevices) {
      if (!db.knows(serial)) {
        removed.add(serial);
      }
    }
    removed.sort(Long::compareUnsigned);
    removed.forEach(sentDevices::remove);
    sentPorts.keySet().removeIf(e -> removed.contains(e.serial()));
    sentLinks.removeIf(l -> removed.contains(l.a().serial()) || removed.contains(l.b().serial()));
    List<TopologyDatabase.Device> devices = new ArrayList<>();
    List<TopologyDatabase.Port> ports = new ArrayList<>();
    List<TopologyDatabase.Link> links = new ArrayList<>();
    for (TopologyDatabase.Device d : db.devices()) {
      if (sentDevices.add(d.serial())) {
        devices.add(new TopologyDatabase.Device(d.serial(), d.type(), d.portCount(), d.maxPayload(), Route.local()));
      }
      for (TopologyDatabase.Port p : db.ports(d.serial()).values()) {
        if (!p.equals(sentPorts.put(new TopologyDatabase.End(p.serial(), p.number()), p))) {
          ports.add(p);
        }
      }
    }
    for (TopologyDatabase.Link l : db.links()) {
      if (sentLinks.add(l)) {
        links.add(l);
      }
    }
    DatabaseDelta delta = new DatabaseDelta(full, devices, ports, links, removed);
    if (delta.isEmpty()) {
      return null;
    }
    fullDue = false;
    if (full) {
      fullCopies++;
    } else {
      deltas++;
    }
    return delta;
  }

  /**
   * Cuts one update into messages of at most max payload bytes: removals, then devices, ports and
   * links.
   */
  private List<FmDatabaseUpdate> cut(DatabaseDelta delta) {
    List<List<Object>> segments = new ArrayList<>();
    List<Object> current = new ArrayList<>();
    int size = FmDatabaseUpdate.FIXED_BYTES;
    List<Object> all = new ArrayList<>(delta.removed());
    all.addAll(delta.devices());
    all.addAll(delta.ports());
    all.addAll(delta.links());
    for (Object entry : all) {
      int entryBytes = entry instanceof Long ? FmDatabaseUpdate.REMOVED_BYTES
          : entry instanceof TopologyDatabase.Device ? FmDatabaseUpdate.DEVICE_BYTES
          : entry instanceof TopologyDatabase.Port ? FmDatabaseUpdate.PORT_BYTES : FmDatabaseUpdate.LINK_BYTES;
      if (size + entryBytes > maxPayload) {
        segments.add(current);
        current = new ArrayList<>();
        size = FmDatabaseUpdate.FIXED_BYTES;
      }
      current.add(entry);
      size += entryBytes;
    }
    segments.add(current); // an empty full copy is one message
    long update = nextUpdate++;
    List<FmDatabaseUpdate> out = new ArrayList<>(segments.size());
    for (int i = 0; i < segments.size(); i++) {
      List<Object> s = segments.get(i);
      FmDatabaseUpdate m = new FmDatabaseUpdate(nextNumber++, update, i, segments.size(), delta.full(),
          only(s, TopologyDatabase.Device.class), only(s, TopologyDatabase.Port.class),
          only(s, TopologyDatabase.Link.class), only(s, Long.class));
      bytes += m.sizeBytes();
      out.add(m);
    }
    return out;
  }

  private static <T> List<T> only(List<Object> entries, Class<T> type) {
    return entries.stream().filter(type::isInstance).map(type::cast).toList();
  }

  /** The number of the last message made; -1 before the first. */
  public long lastNumber() {
    return nextNumber - 1;
  }

  public Counts counts() {
    return new Counts(fullCopies, deltas, nextNumber, bytes, resyncsAsked);
  }
}
