package io.rackfabric.fabric.management;

import io.rackfabric.fabric.management.BaselineCapability.GeneralInfo;
import io.rackfabric.fabric.management.BaselineCapability.PortPointer;
import io.rackfabric.fabric.management.PortRecord.PortInfo;
import io.rackfabric.fabric.management.TopologyDatabase.End;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The fabric manager's discovery of a whole fabric with PI-4 reads, as a state machine driven step
 * by step: {@link #start} gives the first read requests, {@link #onCompletion} takes each
 * completion and gives the requests it leads to, until {@link #done}. Who carries the packets
 * (the fabric's actors, or {@link StructuralFabric}) is not its business.
 *
 * <p>Each device is read as AS-FM Fig. 9 reads switch 12: its general information (100h), then
 * its pointer blocks (one per eight ports), then each port's record as the pointers arrive. A port
 * in DL_Protected or DL_Active (management packets pass, AS-FM section 2.2) leads to a neighbor,
 * read at the route one turn longer, unless it is the port the device was reached through or the
 * link is known already. The general information names the device's serial number, so a device
 * reached a second time (a loop) adds its link and is not read again; it also names the port the
 * read came in through, the far end of that link. The fabric manager's own device is read the same
 * way, locally: those reads are no packets. A device with N ports thus costs 1 + ceil(N/8) + N
 * reads, and a link that closes a loop one read more; nothing is counted in advance.
 *
 * <p>At most {@code window} requests are outstanding; the rest wait their turn. Bad answers (a
 * completion with error, one that matches no request, registers that decode to nonsense) become
 * problems in the database, never exceptions.
 */
public final class DiscoveryWalker {

  private enum Step { GENERAL, POINTERS, PORT, CANDIDATE }

  /** A device being read: where it is, how it was reached, and what its general information said. */
  private static final class Visit {
    final Route route;
    final End from;
    /** Read again after a PI-5 event: its ports are read whether or not the device is known. */
    final boolean again;
    GeneralInfo info;

    Visit(Route route, End from, boolean again) {
      this.route = route;
      this.from = from;
      this.again = again;
    }
  }

  private record Read(Visit visit, Step step, int index, Pi4ReadRequest request) {}

  private final ConfigurationSpace local;
  private final int trafficClass;
  private final int window;
  private TopologyDatabase database = new TopologyDatabase();
  private final PacketCounts packets = new PacketCounts();
  private final Map<Integer, Read> pending = new HashMap<>();
  private final Deque<Read> waiting = new ArrayDeque<>();
  private final Deque<Read> localReads = new ArrayDeque<>();
  private int nextTransaction;
  private boolean started;
  /** Candidate registers read ({@link #readCandidate}): the device's serial, the read's index. */
  private final List<Long> candidateSerials = new ArrayList<>();
  private final Map<Long, Integer> candidateRegisters = new java.util.LinkedHashMap<>();

  /**
   * @param local the configuration space of the fabric manager's own device
   * @param window the most read requests outstanding at once, 1 to 65536 (transaction numbers)
   */
  public DiscoveryWalker(ConfigurationSpace local, int trafficClass, int window) {
    ManagementPacket.checkTrafficClass(trafficClass);
    if (window < 1 || window > Pi4ReadRequest.MAX_TRANSACTION + 1) {
      throw new IllegalArgumentException("window=" + window + " not in [1," + (Pi4ReadRequest.MAX_TRANSACTION + 1) + "]");
    }
    this.local = local;
    this.trafficClass = trafficClass;
    this.window = window;
  }

  /** The first read requests: those to the fabric manager's neighbors, once its own device is read. */
  public List<Pi4ReadRequest> start() {
    if (started) {
      throw new IllegalStateException("discovery already started");
    }
    started = true;
    List<Pi4ReadRequest> out = new ArrayList<>();
    issue(new Visit(Route.local(), null, false), Step.GENERAL, 0, 0, BaselineCapability.OFFSET,
        BaselineCapability.GENERAL_DWORDS, out);
    return out;
  }

  /**
   * Starts from {@code known} instead of a discovery: the database a secondary fabric manager kept
   * and takes over, re-rooted at its own device ({@link TopologyDatabase#rerooted}). From then on
   * the walker re-reads ({@link #reread}) as after a discovery; nothing is read now.
   */
  public void resume(TopologyDatabase known) {
    if (started) {
      throw new IllegalStateException("resume after the discovery started");
    }
    started = true;
    database = known;
  }

  /** Takes one completion; gives the read requests it leads to (and those it made room for). */
  public List<Pi4ReadRequest> onCompletion(Pi4ReadCompletion completion) {
    packets.add(completion);
    List<Pi4ReadRequest> out = new ArrayList<>();
    Read read = pending.remove(completion.transaction());
    if (read == null || !read.request.route().equals(completion.route())) {
      if (read != null) {
        pending.put(completion.transaction(), read);
      }
      database.addProblem(new TopologyDatabase.Problem(completion.route(),
          "completion of transaction " + completion.transaction() + " matches no request: ignored"));
      return out;
    }
    handle(read, completion.result(), out);
    while (!waiting.isEmpty() && pending.size() < window) {
      send(waiting.poll(), out);
    }
    return out;
  }

  /**
   * Reads the device at {@code route} again, as a discovery reads it (general information, pointer
   * blocks, ports), whether or not it is known: the partial rediscovery after a PI-5 event. Its
   * ports' records replace the ones the database has; a port that now leads to a link not known
   * yet is walked on as in a discovery. Gives the requests to send now.
   */
  public List<Pi4ReadRequest> reread(Route route) {
    if (!started) {
      throw new IllegalStateException("reread of " + route + " before the discovery started");
    }
    List<Pi4ReadRequest> out = new ArrayList<>();
    issue(new Visit(route, null, true), Step.GENERAL, 0, 0, BaselineCapability.OFFSET,
        BaselineCapability.GENERAL_DWORDS, out);
    return out;
  }

  /**
   * Reads the candidate register of the spanning-tree capability of device {@code serial} at
   * {@code route} (one register, {@link SecondaryAppointment}); what it says is kept for
   * {@link #takeCandidateRegisters}. Gives the requests to send now.
   */
  public List<Pi4ReadRequest> readCandidate(Route route, long serial) {
    if (!started || route.hops() == 0) {
      throw new IllegalStateException("candidate read of " + route + ": before the discovery or local");
    }
    List<Pi4ReadRequest> out = new ArrayList<>();
    candidateSerials.add(serial);
    issue(new Visit(route, null, false), Step.CANDIDATE, candidateSerials.size() - 1, 0,
        SpanningTreeCapability.OFFSET + 4, 1, out);
    return out;
  }

  /** The candidate registers read since the last call, by device serial (a failed read is missing); then empty. */
  public Map<Long, Integer> takeCandidateRegisters() {
    Map<Long, Integer> out = Map.copyOf(candidateRegisters);
    candidateRegisters.clear();
    return out;
  }

  /** Whether every request was answered and none waits. */
  public boolean done() {
    return started && pending.isEmpty() && waiting.isEmpty();
  }

  public TopologyDatabase database() {
    return database;
  }

  /** The requests sent and the completions taken. */
  public PacketCounts packets() {
    return packets;
  }

  private void issue(Visit visit, Step step, int index, int aperture, long offset, int dwords,
      List<Pi4ReadRequest> out) {
    boolean isLocal = visit.route.hops() == 0;
    Read read = new Read(visit, step, index,
        new Pi4ReadRequest(visit.route, trafficClass, 0, aperture, offset, dwords));
    if (isLocal) {
      localReads.add(read);
      if (localReads.size() == 1) {
        while (!localReads.isEmpty()) {
          Read r = localReads.peek();
          handle(r, local.read(r.request.aperture(), r.request.offset(), r.request.dwords(), -1), out);
          localReads.poll();
        }
      }
    } else if (waiting.isEmpty() && pending.size() < window) { // else behind the ones already waiting
      send(read, out);
    } else {
      waiting.add(read);
    }
  }

  /** Transaction numbers are taken when a request leaves, so a waiting one holds none. */
  private void send(Read read, List<Pi4ReadRequest> out) {
    Pi4ReadRequest r = read.request;
    Pi4ReadRequest numbered =
        new Pi4ReadRequest(r.route(), r.trafficClass(), freeTransaction(), r.aperture(), r.offset(), r.dwords());
    pending.put(numbered.transaction(), new Read(read.visit, read.step, read.index, numbered));
    packets.add(numbered);
    out.add(numbered);
  }

  private int freeTransaction() {
    while (pending.containsKey(nextTransaction)) {
      nextTransaction = (nextTransaction + 1) & Pi4ReadRequest.MAX_TRANSACTION;
    }
    int t = nextTransaction;
    nextTransaction = (nextTransaction + 1) & Pi4ReadRequest.MAX_TRANSACTION;
    return t;
  }

  private void handle(Read read, ReadResult result, List<Pi4ReadRequest> out) {
    Visit visit = read.visit;
    if (!result.ok()) {
      database.addProblem(new TopologyDatabase.Problem(visit.route, String.format(
          "read of aperture %d offset %Xh failed: %s", read.request.aperture(), read.request.offset(), result.error())));
      return;
    }
    try {
      switch (read.step) {
        case GENERAL -> onGeneral(visit, GeneralInfo.decode(result.data()), out);
        case POINTERS -> onPointers(visit, read.index, result.data(), out);
        case PORT -> onPort(visit, read.index, PortInfo.decode(result.data()), out);
        case CANDIDATE -> candidateRegisters.put(candidateSerials.get(read.index), result.data()[0]);
      }
    } catch (IllegalArgumentException e) {
      database.addProblem(new TopologyDatabase.Problem(visit.route,
          String.format("offset %Xh: %s", read.request.offset(), e.getMessage())));
    }
  }

  private void onGeneral(Visit visit, GeneralInfo info, List<Pi4ReadRequest> out) {
    visit.info = info;
    boolean known = database.knows(info.serial());
    if (!known) {
      database.addDevice(new TopologyDatabase.Device(
          info.serial(), info.type(), info.portCount(), info.maxPayload(), visit.route));
    }
    if (visit.from != null) {
      database.addLink(visit.from, new End(info.serial(), info.ingressPort()), visit.route);
    }
    if (known && !visit.again) {
      return;
    }
    for (int block = 0; block < BaselineCapability.pointerBlocks(info.portCount()); block++) {
      issue(visit, Step.POINTERS, block, 0, BaselineCapability.pointerBlockOffset(block),
          BaselineCapability.POINTERS_PER_BLOCK, out);
    }
  }

  private void onPointers(Visit visit, int block, int[] pointers, List<Pi4ReadRequest> out) {
    for (int i = 0; i < pointers.length; i++) {
      int port = block * BaselineCapability.POINTERS_PER_BLOCK + i;
      if (port >= visit.info.portCount()) {
        break;
      }
      PortPointer p = PortPointer.decode(pointers[i]);
      if (p == null) {
        database.addProblem(new TopologyDatabase.Problem(visit.route, "port " + port + " has no record pointer"));
      } else {
        issue(visit, Step.PORT, port, p.aperture(), p.offset(), PortRecord.DWORDS, out);
      }
    }
  }

  private void onPort(Visit visit, int number, PortInfo p, List<Pi4ReadRequest> out) {
    long serial = visit.info.serial();
    database.addPort(new TopologyDatabase.Port(serial, number, p.kind(), p.virtualSwitch(), p.maxWidth(),
        p.maxSpeed(), p.width(), p.speed(), p.state(), p.peerState()));
    End here = new End(serial, number);
    if (PortDescription.carriesManagement(p.state()) && number != visit.info.ingressPort()
        && !database.linked(here)) {
      issue(new Visit(visit.route.then(number), here, false), Step.GENERAL, 0, 0, BaselineCapability.OFFSET,
          BaselineCapability.GENERAL_DWORDS, out);
    }
  }
}
