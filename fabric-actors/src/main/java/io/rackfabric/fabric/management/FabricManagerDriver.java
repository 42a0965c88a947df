package io.rackfabric.fabric.management;

import io.rackfabric.fabric.tlp.FabricMessage;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Function;

/**
 * The fabric manager as the software on its endpoint runs it over the fabric (AS-FM section 4):
 * it discovers the fabric with a {@link DiscoveryWalker} whose read requests leave as
 * {@link FabricMessage}s and whose completions come back as such, then programs every device it
 * found to send its PI-5 events back to it (one PI-4 write each), and on each PI-5 event reads
 * again only the device that reported (a partial rediscovery). Plain: the endpoint gives it the
 * model time of each step and puts what it returns on the wire; the fabric manager's own
 * processing takes no model time (not modelled).
 */
public final class FabricManagerDriver {

  private record Event(Pi5Event event, long sentAt, long at) {}

  private final String fabricManager;
  private final int trafficClass;
  private final DiscoveryWalker walker;
  /** The differences from the topology file, or null when there is none to check against. */
  private final Function<TopologyDatabase, List<String>> check;
  private final Deque<Event> waiting = new ArrayDeque<>();
  private final List<FabricManagerReport.Rediscovery> rediscoveries = new ArrayList<>();
  private long startedAt = -1;
  private long discoveredAt = -1;
  private List<String> differences;
  private long writes;
  private long events;
  /** The rediscovery running: its event and the counts when it began. */
  private Event current;
  private long requestsBefore;
  private long completionsBefore;

  /**
   * @param own the configuration space of the fabric manager's own endpoint (read locally)
   * @param window the most read requests outstanding at once
   * @param check the differences between a database and the topology file; null: none to check
   */
  public FabricManagerDriver(String fabricManager, ConfigurationSpace own, int trafficClass, int window,
      Function<TopologyDatabase, List<String>> check) {
    this.fabricManager = fabricManager;
    this.trafficClass = trafficClass;
    this.walker = new DiscoveryWalker(own, trafficClass, window);
    this.check = check;
  }

  /** Starts the discovery at model {@code at}: the first read requests. */
  public List<FabricMessage> start(long at) {
    startedAt = at;
    List<FabricMessage> out = new ArrayList<>();
    send(walker.start(), at, out);
    afterStep(at, out);
    return out;
  }

  public boolean started() {
    return startedAt >= 0;
  }

  /** A management packet for the fabric manager arrived at model {@code at}: what it leads to. */
  public List<FabricMessage> onArrival(FabricMessage message, long at) {
    List<FabricMessage> out = new ArrayList<>();
    if (message.packet() instanceof Pi4ReadCompletion c && started()) {
      send(walker.onCompletion(c), at, out);
      afterStep(at, out);
    } else if (message.packet() instanceof Pi5Event e) {
      events++;
      waiting.add(new Event(e, message.originAt(), at));
      afterStep(at, out);
    }
    return out;
  }

  /** When the walker has nothing outstanding: the discovery or a rediscovery ends, and the next event is taken. */
  private void afterStep(long at, List<FabricMessage> out) {
    if (!started() || !walker.done()) {
      return;
    }
    if (discoveredAt < 0) {
      discoveredAt = at;
      differences = check == null ? null : check.apply(walker.database());
      for (TopologyDatabase.Device d : walker.database().devices()) {
        if (d.route().hops() > 0) {
          out.add(FabricMessage.send(DeviceManager.eventRouteWrite(d.route(), trafficClass), d.route().turns(), at));
          writes++;
        }
      }
    } else if (current != null) {
      rediscoveries.add(rediscovery(current, at));
      current = null;
    }
    while (current == null && !waiting.isEmpty()) {
      Event e = waiting.poll();
      TopologyDatabase.Device d = walker.database().device(e.event().serial()).orElse(null);
      if (d == null) {
        continue; // from a device the database does not have: nothing to read again
      }
      current = e;
      requestsBefore = walker.packets().count(PacketKind.PI4_READ_REQUEST);
      completionsBefore = completions();
      send(walker.reread(d.route()), at, out);
      if (walker.done()) { // the fabric manager's own device: read locally, no packets
        rediscoveries.add(rediscovery(current, at));
        current = null;
      }
    }
  }

  private FabricManagerReport.Rediscovery rediscovery(Event e, long doneAt) {
    return new FabricManagerReport.Rediscovery(e.event().serial(), e.event().port(), e.event().state(), e.sentAt(),
        e.at(), walker.packets().count(PacketKind.PI4_READ_REQUEST) - requestsBefore, completions() - completionsBefore,
        doneAt, check == null ? null : check.apply(walker.database()));
  }

  private long completions() {
    PacketCounts p = walker.packets();
    return p.count(PacketKind.PI4_COMPLETION_WITH_DATA) + p.count(PacketKind.PI4_COMPLETION_WITH_ERROR);
  }

  private static void send(List<Pi4ReadRequest> requests, long at, List<FabricMessage> out) {
    for (Pi4ReadRequest r : requests) {
      out.add(FabricMessage.send(r, r.route().turns(), at));
    }
  }

  public TopologyDatabase database() {
    return walker.database();
  }

  public FabricManagerReport report() {
    PacketCounts p = walker.packets();
    List<String> problems = new ArrayList<>();
    for (TopologyDatabase.Problem pr : walker.database().problems()) {
      problems.add(pr.route() + ": " + pr.what());
    }
    return new FabricManagerReport(fabricManager, startedAt, discoveredAt, p.count(PacketKind.PI4_READ_REQUEST),
        p.bytes(PacketKind.PI4_READ_REQUEST), p.count(PacketKind.PI4_COMPLETION_WITH_DATA),
        p.bytes(PacketKind.PI4_COMPLETION_WITH_DATA), p.count(PacketKind.PI4_COMPLETION_WITH_ERROR), writes, events,
        walker.database().devices().size(), walker.database().links().size(), problems, differences, rediscoveries);
  }
}
