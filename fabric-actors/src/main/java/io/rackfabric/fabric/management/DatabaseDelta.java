package io.rackfabric.fabric.management;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One change of the primary fabric manager's topology database, as {@link DatabaseShipper} works
 * it out against what it handed on last: a full copy, or a delta (the devices and links not handed
 * on yet, the ports whose record changed, the devices removed since, each with its ports and links).
 * The over-fabric copy cuts it into {@link FmDatabaseUpdate} messages; in the Ladon rack it is also
 * the body of the controller's event that keeps the database in the control plane's state. Devices
 * carry the empty route (routes are the primary's own).
 *
 * @param full whether it is a full copy: whoever keeps the database starts afresh from it
 * @param removed serial numbers of devices removed since the last change (a delta only)
 */
public record DatabaseDelta(boolean full, List<TopologyDatabase.Device> devices, List<TopologyDatabase.Port> ports,
    List<TopologyDatabase.Link> links, List<Long> removed) implements io.rackfabric.fabric.wire.WireMessage {

  public DatabaseDelta {
    devices = devices == null ? List.of() : List.copyOf(devices);
    ports = ports == null ? List.of() : List.copyOf(ports);
    links = links == null ? List.of() : List.copyOf(links);
    removed = removed == null ? List.of() : List.copyOf(removed);
  }

  /** A full copy of nothing: what keeping starts from. */
  public static DatabaseDelta none() {
    return new DatabaseDelta(true, List.of(), List.of(), List.of(), List.of());
  }

  /** Whether it changes nothing (a delta with no entry). */
  public boolean isEmpty() {
    return !full && devices.isEmpty() && ports.isEmpty() && links.isEmpty() && removed.isEmpty();
  }

  /**
   * The database this full copy followed by {@code next} gives, as a full copy: {@code next} itself
   * when it is a full copy; else its removals taken out (the devices with their ports and links),
   * its devices and links added when new, its ports put in place of the records they replace.
   */
  public DatabaseDelta then(DatabaseDelta next) {
    if (next.full) {
      return next;
    }
    Set<Long> gone = new LinkedHashSet<>(next.removed);
    Map<Long, TopologyDatabase.Device> d = new LinkedHashMap<>();
    devices.stream().filter(x -> !gone.contains(x.serial())).forEach(x -> d.put(x.serial(), x));
    next.devices.forEach(x -> d.putIfAbsent(x.serial(), x));
    Map<TopologyDatabase.End, TopologyDatabase.Port> p = new LinkedHashMap<>();
    ports.stream().filter(x -> d.containsKey(x.serial())).forEach(x -> p.put(new TopologyDatabase.End(x.serial(), x.number()), x));
    next.ports.stream().filter(x -> d.containsKey(x.serial()))
        .forEach(x -> p.put(new TopologyDatabase.End(x.serial(), x.number()), x));
    Set<TopologyDatabase.Link> l = new LinkedHashSet<>();
    for (TopologyDatabase.Link x : links) {
      if (d.containsKey(x.a().serial()) && d.containsKey(x.b().serial())) {
        l.add(x);
      }
    }
    next.links.stream().filter(x -> d.containsKey(x.a().serial()) && d.containsKey(x.b().serial())).forEach(l::add);
    return new DatabaseDelta(true, new ArrayList<>(d.values()), new ArrayList<>(p.values()), new ArrayList<>(l),
        List.of());
  }

  /** Applies it to {@code db} (a full copy is applied to an empty database by the caller). */
  void applyTo(TopologyDatabase db) {
    removed.forEach(db::removeDevice);
    for (TopologyDatabase.Device dev : devices) {
      if (!db.knows(dev.serial())) {
        db.addDevice(dev);
      }
    }
    for (TopologyDatabase.Port port : ports) {
      if (db.knows(port.serial())) {
        db.addPort(port);
      }
    }
    for (TopologyDatabase.Link link : links) {
      db.addLink(link.a(), link.b(), Route.local());
    }
  }

  /** This full copy as a database (devices with the empty route, as they were handed on). */
  public TopologyDatabase toDatabase() {
    TopologyDatabase db = new TopologyDatabase();
    applyTo(db);
    return db;
  }

  /** A line for logs and replays: what kind of change and how many of each entry. */
  public String summary() {
    return (full ? "full copy" : "delta") + ": " + devices.size() + " devices, " + ports.size() + " ports, "
        + links.size() + " links" + (removed.isEmpty() ? "" : ", " + removed.size() + " removed");
  }
}
