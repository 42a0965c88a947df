package io.rackfabric.fabric.management;

import io.rackfabric.fabric.link.DataLinkState;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What the fabric manager knows of the fabric: devices by serial number, their ports, the links
 * between ports, and what went wrong on the way. Filled by {@link DiscoveryWalker}.
 */
public final class TopologyDatabase {

  /** A device found, and the route it was first reached by. */
  public record Device(long serial, DeviceType type, int portCount, int maxPayload, Route route) {}

  /** A port as its record read. */
  public record Port(long serial, int number, PortKind kind, int virtualSwitch, int maxWidth, int maxSpeed,
      int width, int speed, DataLinkState state, DataLinkState peerState) {}

  /** One end of a link: a device's port. */
  public record End(long serial, int port) implements Comparable<End> {
    @Override
    public int compareTo(End o) {
      int c = Long.compareUnsigned(serial, o.serial);
      return c != 0 ? c : Integer.compare(port, o.port);
    }

    @Override
    public String toString() {
      return String.format("%016X.%d", serial, port);
    }
  }

  /** A link between two ends, the lower end first. */
  public record Link(End a, End b) {
    public static Link of(End x, End y) {
      return x.compareTo(y) <= 0 ? new Link(x, y) : new Link(y, x);
    }
  }

  /** Something that went wrong reading the device at {@code route}. */
  public record Problem(Route route, String what) {}

  private final Map<Long, Device> devices = new LinkedHashMap<>();
  private final Map<Long, SortedMap<Integer, Port>> ports = new HashMap<>();
  private final Map<End, Link> linksByEnd = new HashMap<>();
  private final List<Link> links = new ArrayList<>();
  private final List<Problem> problems = new ArrayList<>();

  void addDevice(Device device) {
    devices.put(device.serial(), device);
    ports.put(device.serial(), new TreeMap<>());
  }

  void addPort(Port port) {
    ports.get(port.serial()).put(port.number(), port);
  }

  /** Records the link between {@code x} and {@code y}; a problem when either end has another. */
  void addLink(End x, End y, Route route) {
    Link link = Link.of(x, y);
    Link atX = linksByEnd.get(x);
    Link atY = linksByEnd.get(y);
    if (link.equals(atX) && link.equals(atY)) {
      return;
    }
    if (atX != null || atY != null) {
      problems.add(new Problem(route, "link " + x + " -- " + y + " conflicts with "
          + (atX != null ? atX : atY)));
      return;
    }
    linksByEnd.put(x, link);
    linksByEnd.put(y, link);
    links.add(link);
  }

  void addProblem(Problem problem) {
    problems.add(problem);
  }

  /**
   * Removes every device but {@code own} that is detached: each link this database has of it has an
   * end whose port, as last read, carries no management (out of DL_Protected and DL_Active), so no
   * packet can reach it any more (AS-FM section 4: a device removed is seen as its neighbors' ports
   * going down). Its ports and links go with it. A device cut off behind a link that went down but
   * with a link read up (a switch and what hangs behind it, unread since) stays, as last read: the
   * fabric manager cannot read it to tell. Gives the serials removed, in the order they were found.
   */
  public List<Long> removeDetached(long own) {
    List<Long> removed = new ArrayList<>();
    for (Device d : devices.values()) {
      if (d.serial() != own && detached(d.serial())) {
        removed.add(d.serial());
      }
    }
    for (long serial : removed) {
      devices.remove(serial);
      ports.remove(serial);
    }
    links.removeIf(l -> removed.contains(l.a().serial()) || removed.contains(l.b().serial()));
    linksByEnd.values().removeIf(l -> removed.contains(l.a().serial()) || removed.contains(l.b().serial()));
    return removed;
  }

  /** Removes device {@code serial} with its ports and links (a removal another fabric manager made); no change when unknown. */
  void removeDevice(long serial) {
    if (devices.remove(serial) == null) {
      return;
    }
    ports.remove(serial);
    links.removeIf(l -> l.a().serial() == serial || l.b().serial() == serial);
    linksByEnd.values().removeIf(l -> l.a().serial() == serial || l.b().serial() == serial);
  }

  private boolean detached(long serial) {
    for (int port : ports(serial).keySet()) {
      Link l = linksByEnd.get(new End(serial, port));
      if (l != null && carries(l.a()) && carries(l.b())) {
        return false;
      }
    }
    return true;
  }

  private boolean carries(End end) {
    return port(end).map(p -> PortDescription.carriesManagement(p.state())).orElse(false);
  }

  public boolean knows(long serial) {
    return devices.containsKey(serial);
  }

  public boolean linked(End end) {
    return linksByEnd.containsKey(end);
  }

  /** Devices in the order they were found. */
  public Collection<Device> devices() {
    return Collections.unmodifiableCollection(devices.values());
  }

  public Optional<Device> device(long serial) {
    return Optional.ofNullable(devices.get(serial));
  }

  /** The ports of device {@code serial} read so far, by number. */
  public SortedMap<Integer, Port> ports(long serial) {
    return Collections.unmodifiableSortedMap(ports.getOrDefault(serial, new TreeMap<>()));
  }

  /** Links in the order they were found. */
  public List<Link> links() {
    return Collections.unmodifiableList(links);
  }

  public List<Problem> problems() {
    return Collections.unmodifiableList(problems);
  }

  /** The port at {@code end}, if it was read. */
  public Optional<Port> port(End end) {
    return Optional.ofNullable(ports.getOrDefault(end.serial(), new TreeMap<>()).get(end.port()));
  }

  /** The link at {@code end}, if one is known. */
  public Optional<Link> link(End end) {
    return Optional.ofNullable(linksByEnd.get(end));
  }

  /**
   * The devices linked to device {@code serial} (its neighbors as this database has them, whatever
   * the state of the link's ports now), in the order of its ports.
   */
  public List<Long> neighbors(long serial) {
    List<Long> out = new ArrayList<>();
    for (int port : ports(serial).keySet()) {
      Link l = linksByEnd.get(new End(serial, port));
      if (l != null) {
        long other = l.a().serial() == serial && l.a().port() == port ? l.b().serial() : l.a().serial();
        if (!out.contains(other)) {
          out.add(other);
        }
      }
    }
    return out;
  }

  /**
   * The route from device {@code from} to every device it reaches over known links whose two ports
   * carry management (DL_Protected or DL_Active), never through device {@code dead} (-1 or any
   * serial not known: none), in the order they are reached: breadth first, ports in order, so each
   * route is the shortest and, among the shortest, the one with the lowest turns first. A link that
   * is not on a device's route can go down without changing that route (its length and its turns
   * are still the least). {@code from} itself first, with the local route; empty when it is not
   * known or is {@code dead}. The one router over the database: the take-over's re-rooting and the
   * paths the fabric manager distributes ({@link PathComputation}) both use it.
   */
  public Map<Long, Route> routes(long from, long dead) {
    Map<Long, Route> out = new LinkedHashMap<>();
    if (!knows(from) || from == dead) {
      return out;
    }
    java.util.ArrayDeque<Long> queue = new java.util.ArrayDeque<>();
    out.put(from, Route.local());
    queue.add(from);
    while (!queue.isEmpty()) {
      long serial = queue.poll();
      Route route = out.get(serial);
      for (Port p : ports(serial).values()) {
        Link l = linksByEnd.get(new End(serial, p.number()));
        if (l == null || !PortDescription.carriesManagement(p.state())) {
          continue;
        }
        End far = l.a().serial() == serial && l.a().port() == p.number() ? l.b() : l.a();
        Port farPort = port(far).orElse(null);
        if (far.serial() == dead || out.containsKey(far.serial()) || !devices.containsKey(far.serial())
            || farPort == null || !PortDescription.carriesManagement(farPort.state())) {
          continue;
        }
        out.put(far.serial(), route.then(p.number()));
        queue.add(far.serial());
      }
    }
    return out;
  }

  /**
   * This database as a fabric manager on device {@code from} sees it: every device reachable from
   * {@code from} ({@link #routes}), never through device {@code dead}, with its route from
   * {@code from}, its ports, and the links between reachable devices. A device not reachable so is
   * left out, as a discovery from {@code from} would not find it. Problems are not carried over.
   * Empty when {@code from} is not known.
   */
  public TopologyDatabase rerooted(long from, long dead) {
    TopologyDatabase out = new TopologyDatabase();
    for (Map.Entry<Long, Route> r : routes(from, dead).entrySet()) {
      Device d = devices.get(r.getKey());
      out.addDevice(new Device(d.serial(), d.type(), d.portCount(), d.maxPayload(), r.getValue()));
    }
    for (long serial : out.devices.keySet()) {
      ports(serial).values().forEach(out::addPort);
    }
    for (Link l : links) {
      if (out.knows(l.a().serial()) && out.knows(l.b().serial())) {
        out.addLink(l.a(), l.b(), Route.local());
      }
    }
    return out;
  }
}
