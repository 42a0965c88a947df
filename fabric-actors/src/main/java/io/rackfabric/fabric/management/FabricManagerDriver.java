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
 * again only the device that reported (a partial rediscovery), walking on to a device a port that
 * came up leads to and removing the devices the change left detached. Each time its database settles (the
 * discovery's end, a take-over's re-reads, every rediscovery) it computes the endpoints' paths and
 * writes what changed into their path tables ({@link PathDistributor}), when it distributes paths. Plain: the endpoint gives it the
 * model time of each step and puts what it returns on the wire, each message at the model time it
 * carries: the fabric manager's own processing ({@link ProcessingCost}) delays what a packet leads
 * to by its cost, one step at a time ({@link #busyUntil}).
 */
public final class FabricManagerDriver {

  private record Event(Pi5Event event, long sentAt, long at) {}

  private final String fabricManager;
  private final long ownSerial;
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
  private long activationWrites;
  /** Writes to the fabric manager's own device, applied locally by its endpoint (no packets). */
  private final List<Pi4Write> localWrites = new ArrayList<>();
  private long events;
  /** The rediscovery running: its event and the counts when it began. */
  private Event current;
  private long requestsBefore;
  private long completionsBefore;
  /** Devices in the database when the rediscovery running began: those after them are new. */
  private int devicesBefore;
  /** Read requests when the discovery (or the take-over's re-reads) finished. */
  private long discoveryReadRequests;
  /** The discovery, then every rediscovery, that finished: each changed the database, or may have. */
  private long databaseChanges;
  /** The devices a take-over from a kept database re-reads; null: no such take-over. */
  private List<Long> resumedRereads;
  /** The distribution of paths; null when it distributes none. */
  private final PathDistributor paths;
  private final ProcessingCost cost;
  /** The model time its last step's processing ended; -1 before the first. */
  private long busyUntil = -1;
  /** Model time spent processing, all steps. */
  private long processingNs;
  /** A new secondary to appoint once a take-over serves; null: none asked. */
  private SecondaryAppointment appointment;
  /** The secondary it appointed, until its endpoint takes it. */
  private ElectionClaim appointed;
  /** The NTB windows it writes (an empty plan: none). */
  private NtbWindowWriter windows = new NtbWindowWriter(NtbWindows.Plan.NONE, 0);

  /**
   * @param own the configuration space of the fabric manager's own endpoint (read locally)
   * @param window the most read requests outstanding at once
   * @param check the differences between a database and the topology file; null: none to check
   * @param distributePaths whether it computes and distributes the endpoints' paths
   * @param routesPerDestination routes per destination in the tables it distributes (1 or 2)
   * @param cost the model time each packet it takes and each device it adds costs
   */
  public FabricManagerDriver(String fabricManager, ConfigurationSpace own, int trafficClass, int window,
      Function<TopologyDatabase, List<String>> check, boolean distributePaths, int routesPerDestination,
      ProcessingCost cost) {
    this.cost = cost;
    this.fabricManager = fabricManager;
    this.ownSerial = own.device().serial();
    this.trafficClass = trafficClass;
    this.walker = new DiscoveryWalker(own, trafficClass, window);
    this.check = check;
    this.paths = distributePaths ? new PathDistributor(own.device().serial(), trafficClass, routesPerDestination)
        : null;
  }

  /**
   * It writes the NTB ports' windows of {@code plan} into their chips once it has found them (the
   * discovery's end, or a rediscovery that found a chip again), before it activates any port. Call
   * before it starts.
   */
  public void writeNtbWindows(NtbWindows.Plan plan) {
    windows = new NtbWindowWriter(plan == null ? NtbWindows.Plan.NONE : plan, trafficClass);
  }

  /** Starts the discovery at model {@code at}: the first read requests. */
  public List<FabricMessage> start(long at) {
    startedAt = at;
    List<FabricMessage> out = new ArrayList<>();
    List<Pi4ReadRequest> first = walker.start(); // its own device, read locally
    long done = process(at, 0, walker.database().devices().size());
    send(first, done, out);
    afterStep(done, out);
    return out;
  }

  /**
   * Takes over at model {@code at} from {@code known}, the database the secondary kept, re-rooted
   * at this fabric manager's device, instead of discovering: every device in it but its own gets
   * one PI-4 write programming its event route to this fabric manager, and the devices
   * {@code reread} (those whose ports the old primary's death may have changed) are read again as
   * after a PI-5 event; once they are in, the ports they have in DL_Protected are activated and any
   * device they lead to that the database did not have is configured. The take-over is served
   * ({@code discoveredAt}) when the last of their completions arrives.
   */
  public List<FabricMessage> resume(TopologyDatabase known, List<Long> reread, long at) {
    walker.resume(known);
    windows.keep(known.devices());
    startedAt = at;
    resumedRereads = new ArrayList<>();
    devicesBefore = known.devices().size();
    List<FabricMessage> out = new ArrayList<>();
    for (TopologyDatabase.Device d : known.devices()) {
      if (d.route().hops() > 0) {
        out.add(FabricMessage.send(DeviceManager.eventRouteWrite(d.route(), trafficClass), d.route().turns(), at));
        writes++;
      }
    }
    for (long serial : reread) {
      known.device(serial).ifPresent(d -> {
        resumedRereads.add(serial);
        send(walker.reread(d.route()), at, out);
      });
    }
    afterStep(at, out);
    return out;
  }

  /** Whether it took over a kept database ({@link #resume}) rather than discovering. */
  public boolean resumed() {
    return resumedRereads != null;
  }

  /** How many times the database was settled: the discovery's end, then every rediscovery's. */
  public long databaseChanges() {
    return databaseChanges;
  }

  public boolean started() {
    return startedAt >= 0;
  }

  /** A management packet for the fabric manager arrived at model {@code at}: what it leads to. */
  public List<FabricMessage> onArrival(FabricMessage message, long at) {
    List<FabricMessage> out = new ArrayList<>();
    if (message.packet() instanceof Pi4ReadCompletion c && started()) {
      int before = walker.database().devices().size();
      List<Pi4ReadRequest> next = walker.onCompletion(c);
      long done = process(at, 1, Math.max(0, walker.database().devices().size() - before));
      send(next, done, out);
      afterStep(done, out);
    } else if (message.packet() instanceof Pi5Event e) {
      events++;
      waiting.add(new Event(e, message.originAt(), at));
      afterStep(process(at, 1, 0), out);
    }
    return out;
  }

  /**
   * One step of its own processing for a packet or event that reached it at model {@code at}: it
   * starts when the previous step ended and costs {@code packets} packets and {@code devices}
   * devices added. Gives the model time it ends, when what it leads to leaves.
   */
  private long process(long at, long packets, long devices) {
    // with no cost it acts at the packet's arrival, as it always did, whatever the order they came in
    long begin = cost.equals(ProcessingCost.NONE) ? at : Math.max(at, busyUntil);
    long spent = cost.of(packets, devices);
    processingNs += spent;
    busyUntil = begin + spent;
    return busyUntil;
  }

  /**
   * The model time its last step ended (-1 before the first): its writes to its own device take
   * effect then.
   */
  public long busyUntil() {
    return busyUntil;
  }

  /** When the walker has nothing outstanding: the discovery or a rediscovery ends, and the next event is taken. */
  private void afterStep(long at, List<FabricMessage> out) {
    if (!started() || !walker.done()) {
      return;
    }
    if (discoveredAt < 0 && resumed()) {
      discovered(at);
      for (long serial : resumedRereads) {
        walker.database().device(serial).ifPresent(d -> activate(d, at, out));
      }
      configureFound(at, out);
      distribute("takeover", at, out);
      beginAppointment(at, out);
    } else if (discoveredAt < 0) {
      discovered(at);
      windows.write(walker.database().devices(), at, out);
      for (TopologyDatabase.Device d : walker.database().devices()) {
        if (d.route().hops() > 0) {
          out.add(FabricMessage.send(DeviceManager.eventRouteWrite(d.route(), trafficClass), d.route().turns(), at));
          writes++;
        }
      }
      for (TopologyDatabase.Device d : walker.database().devices()) {
        activate(d, at, out);
      }
      distribute("discovery", at, out);
      beginAppointment(at, out);
    } else if (current != null) {
      walker.database().device(current.event().serial()).ifPresent(d -> activate(d, at, out));
      int added = configureFound(at, out);
      settle(added, at, out);
    }
    if (appointment != null && appointment.reading() && walker.done()) {
      finishAppointment(at, out);
    }
    while (current == null && (appointment == null || !appointment.reading()) && !waiting.isEmpty()) {
      Event e = waiting.poll();
      TopologyDatabase.Device d = walker.database().device(e.event().serial()).orElse(null);
      if (d == null) {
        continue; // from a device the database does not have: nothing to read again
      }
      current = e;
      devicesBefore = walker.database().devices().size();
      requestsBefore = walker.packets().count(PacketKind.PI4_READ_REQUEST);
      completionsBefore = completions();
      send(walker.reread(d.route()), at, out);
      if (walker.done()) { // the fabric manager's own device: read locally, no packets
        activate(d, at, out);
        settle(0, at, out);
      }
    }
  }

  /** The discovery (or the take-over's re-reads) ended at model {@code at}: the database is checked. */
  private void discovered(long at) {
    discoveredAt = at;
    discoveryReadRequests = walker.packets().count(PacketKind.PI4_READ_REQUEST);
    databaseChanges++;
    differences = check == null ? null : check.apply(walker.database());
  }

  /**
   * Once it serves after a take-over it looks for a new secondary ({@link SecondaryAppointment}):
   * {@code own} its own claim, {@code dead} the dead primary's serial. Call before it serves.
   */
  public void appointSecondaryOnceServing(ElectionClaim own, long dead) {
    appointment = new SecondaryAppointment(own, dead);
  }

  /** The take-over serves at model {@code at}: the candidate registers of the endpoints it reaches are read. */
  private void beginAppointment(long at, List<FabricMessage> out) {
    if (appointment != null) {
      appointment.begin(walker.database())
          .forEach((serial, route) -> send(walker.readCandidate(route, serial), at, out));
    }
  }

  /** The candidate registers are in at model {@code at}: the best candidate is appointed with one write. */
  private void finishAppointment(long at, List<FabricMessage> out) {
    walker.takeCandidateRegisters().forEach(appointment::read);
    appointment.choose().ifPresent(c -> walker.database().device(c.serial()).ifPresent(d -> {
      out.add(FabricMessage.send(appointment.appointment(c, d.route(), trafficClass), d.route().turns(), at));
      writes++;
      appointed = c;
    }));
  }

  /** The secondary it appointed since the last call (empty: none); then empty. */
  public java.util.Optional<ElectionClaim> takeAppointed() {
    java.util.Optional<ElectionClaim> a = java.util.Optional.ofNullable(appointed);
    appointed = null;
    return a;
  }

  /** The appointment of a new secondary; null when none was asked. */
  public SecondaryAppointment appointment() {
    return appointment;
  }

  /**
   * Every port of {@code d} that its read found trained but not active (DL_Protected) gets one PI-4
   * write activating it (AS-FM section 4: "fabric ports must be activated ... PI-4 write packets
   * are used"); the fabric manager's own device's are applied locally ({@link #takeLocalWrites}).
   */
  private void activate(TopologyDatabase.Device d, long at, List<FabricMessage> out) {
    for (TopologyDatabase.Port p : walker.database().ports(d.serial()).values()) {
      if (p.state() != io.rackfabric.fabric.link.DataLinkState.DL_PROTECTED) {
        continue;
      }
      Pi4Write w = DeviceManager.activationWrite(d.route(), trafficClass, p.number(), true);
      activationWrites++;
      if (d.route().hops() == 0) {
        localWrites.add(w);
      } else {
        out.add(FabricMessage.send(w, d.route().turns(), at));
      }
    }
  }

  /**
   * The rediscovery running ended at model {@code at}, {@code added} devices found: the devices it
   * left detached are removed ({@link TopologyDatabase#removeDetached}), the rediscovery recorded
   * and the changed paths distributed.
   */
  private void settle(int added, long at, List<FabricMessage> out) {
    List<Long> removed = walker.database().removeDetached(ownSerial);
    if (paths != null) {
      removed.forEach(paths::forget);
    }
    databaseChanges++;
    rediscoveries.add(rediscovery(current, at, added, removed.size()));
    distribute("rediscovery " + (rediscoveries.size() - 1), at, out);
    current = null;
  }

  /**
   * Devices a rediscovery found that the database did not have (a port that came up led to them)
   * are configured as a discovery's are: their event route, and their trained ports activated.
   * Gives how many there were.
   */
  private int configureFound(long at, List<FabricMessage> out) {
    List<TopologyDatabase.Device> all = new ArrayList<>(walker.database().devices());
    List<TopologyDatabase.Device> found = all.subList(Math.min(devicesBefore, all.size()), all.size());
    windows.write(found, at, out);
    for (TopologyDatabase.Device d : found) {
      if (d.route().hops() > 0) {
        out.add(FabricMessage.send(DeviceManager.eventRouteWrite(d.route(), trafficClass), d.route().turns(), at));
        writes++;
      }
      activate(d, at, out);
    }
    return found.size();
  }

  /** The database settled at model {@code at}: the paths that changed, to the endpoints they changed at. */
  private void distribute(String trigger, long at, List<FabricMessage> out) {
    if (paths != null) {
      paths.distribute(walker.database(), trigger, at, out, localWrites);
    }
  }

  /** Writes for the fabric manager's own device since the last call, for its endpoint to apply; then empty. */
  public List<Pi4Write> takeLocalWrites() {
    return ManagementAgent.drain(localWrites);
  }

  private FabricManagerReport.Rediscovery rediscovery(Event e, long doneAt, int added, int removed) {
    return new FabricManagerReport.Rediscovery(e.event().serial(), e.event().port(), e.event().state(), e.sentAt(),
        e.at(), walker.packets().count(PacketKind.PI4_READ_REQUEST) - requestsBefore, completions() - completionsBefore,
        doneAt, check == null ? null : check.apply(walker.database()), added, removed);
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
        p.bytes(PacketKind.PI4_COMPLETION_WITH_DATA), p.count(PacketKind.PI4_COMPLETION_WITH_ERROR), writes, activationWrites, events,
        walker.database().devices().size(), walker.database().links().size(), problems, differences, rediscoveries,
        discoveryReadRequests, null, null, paths == null ? null : paths.report(walker.database()), processingNs,
        windows.report());
  }
}
