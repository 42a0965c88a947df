package io.rackfabric.host.ftgm;

import io.rackfabric.fabric.time.EventQueue;
import io.rackfabric.host.nic.EthernetLink;
import io.rackfabric.host.nic.FaultCategory;
import io.rackfabric.host.nic.FaultPoint;
import io.rackfabric.host.nic.McpFirmware;
import io.rackfabric.host.nic.McpMode;
import io.rackfabric.host.nic.McpPacket;
import io.rackfabric.host.nic.NicSettings;
import io.rackfabric.host.nic.PortEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The rack's NIC running message firmware, its 10 GbE link to the interface of a server outside
 * the rack running the same protocol, and the processes on both sides: port 0 of the NIC owned by
 * the MH (the PF), ports 1.. by the CHs (their VFs), each port of the server by the server. Each
 * NIC port exchanges a steady flow of messages with the server port of the same number, both ways.
 * Everything runs on one {@link EventQueue} in model time, so a run is determined by its inputs.
 */
public final class FtgmTestbed {

  public static final String REMOTE = "remote";

  private final EventQueue clock = new EventQueue();
  private final DeliveryLog log = new DeliveryLog();
  private final List<RecoveryEvent> events = new ArrayList<>();
  private final FtgmSettings settings;
  private final McpMode mode;
  private final int ports;
  private final Side nic;
  private final Side remote;
  /** Nothing is settled before every scheduled submission and fault injection has happened. */
  private long scheduledUntil;

  private final class Side implements McpFirmware.Hardware, McpFirmware.Host {
    final String name;
    final McpFirmware card;
    final FaultToleranceDaemon daemon;
    final Map<Integer, PortLibrary> libraries = new TreeMap<>();
    final Map<Integer, TrafficPort> apps = new TreeMap<>();
    final RecoveryLane lane = new RecoveryLane();
    final EthernetLink link;
    final List<Long> recoveredAt = new ArrayList<>();
    Side peer;
    long dmaFreeAt;

    Side(String name, String peerName, NicSettings nicSettings) {
      this.name = name;
      this.link = new EthernetLink(nicSettings.linkRateBitsPerSecond(), nicSettings.propagationNs());
      this.card = new McpFirmware(name, mode, settings.timing(), clock, this, this);
      Set<Integer> pages = new TreeSet<>();
      for (int p = 0; p < ports; p++) {
        pages.add(p);
      }
      this.daemon = new FaultToleranceDaemon(card, settings, clock, () -> List.copyOf(libraries.values()), pages,
          Set.of(peerName), events::add);
    }

    void open(long at, String owner) {
      daemon.boot(at);
      for (int p = 0; p < ports; p++) {
        PortLibrary lib = new PortLibrary(owner.equals("ch") ? (p == 0 ? "mh" : "ch" + p) : owner, p, settings, card,
            clock, lane);
        libraries.put(p, lib);
        card.openPort(p, at);
      }
    }

    void traffic(int p) {
      PortLibrary lib = libraries.get(p);
      int flow = log.flow(name + ":" + p + "->" + peer.name + ":" + p);
      TrafficPort app = new TrafficPort(lib, log, flow, peer.name, p, settings);
      apps.put(p, app);
      lib.attach(app, at -> {
        recoveredAt.add(at);
        events.add(new RecoveryEvent(at, name, RecoveryEvent.PORT_REOPENED, p, ""));
      });
    }

    @Override
    public void dma(long tag, boolean toHost, long hostAddress, int length, long at) {
      long done = Math.max(at, dmaFreeAt) + settings.hostDmaNs();
      dmaFreeAt = done; // one host DMA interface: transfers queue behind each other
      clock.at(done, () -> card.dmaCompleted(tag, done));
    }

    @Override
    public void transmit(McpPacket packet, long at) {
      EthernetLink.Transmission tx = link.transmit(packet.frameBytes(), at);
      clock.at(tx.arrivesAt(), () -> peer.card.packetArrived(packet, tx.arrivesAt()));
    }

    @Override
    public void post(int port, PortEvent event, long at) {
      PortLibrary lib = libraries.get(port);
      if (lib != null) {
        clock.at(at, () -> lib.deliver(event, at));
      }
    }

    @Override
    public void interrupt(McpFirmware.Interrupt cause, long at) {
      events.add(new RecoveryEvent(at, name, RecoveryEvent.INTERRUPT, -1, cause.name().toLowerCase(Locale.ROOT)));
      clock.at(at, () -> daemon.interrupted(cause, at));
    }

    boolean serving() {
      return card.loaded() && !card.hung() && !daemon.busy() && card.openPorts().size() == ports;
    }
  }

  /**
   * @param nicName the rack NIC's name (the one faults are injected into)
   * @param ports open ports on each side (1..8)
   */
  public FtgmTestbed(String nicName, McpMode mode, FtgmSettings settings, NicSettings nicSettings, int ports) {
    if (ports < 1 || ports > 8) {
      throw new IllegalArgumentException("ports=" + ports + " not in [1,8]");
    }
    if (REMOTE.equals(nicName)) {
      throw new IllegalArgumentException("nic=" + nicName + " is the name of the server's interface");
    }
    this.settings = settings;
    this.mode = mode;
    this.ports = ports;
    this.nic = new Side(nicName, REMOTE, nicSettings);
    this.remote = new Side(REMOTE, nicName, nicSettings);
    nic.peer = remote;
    remote.peer = nic;
  }

  /** Loads both cards at {@code at}, opens the ports, and the applications provide their buffers. */
  public void start(long at) {
    clock.at(at, () -> {
      nic.open(at, "ch");
      remote.open(at, "server");
      for (int p = 0; p < ports; p++) {
        nic.traffic(p);
        remote.traffic(p);
      }
      nic.apps.values().forEach(a -> a.start(at));
      remote.apps.values().forEach(a -> a.start(at));
    });
  }

  /**
   * Every port on both sides submits {@code messages} messages, one every {@code intervalNs} from
   * {@code from}; {@code toRemoteOnly} leaves the server silent.
   */
  public void traffic(int messages, long intervalNs, long from, boolean toRemoteOnly) {
    scheduledUntil = Math.max(scheduledUntil, from + (messages - 1L) * intervalNs);
    for (int i = 0; i < messages; i++) {
      long at = from + i * intervalNs;
      clock.at(at, () -> {
        nic.apps.values().forEach(a -> a.submit(at));
        if (!toRemoteOnly) {
          remote.apps.values().forEach(a -> a.submit(at));
        }
      });
    }
  }

  /** Arms a fault in {@code nicName}'s firmware at model time {@code at}. */
  public void inject(String nicName, FaultCategory category, FaultPoint point, long at) {
    Side side = side(nicName);
    scheduledUntil = Math.max(scheduledUntil, at);
    clock.at(at, () -> side.card.inject(category, point));
  }

  /**
   * All traffic submitted and every fault armed, every message confirmed to its sender, both cards
   * serving, no daemon at work.
   */
  public boolean settled() {
    return clock.now() >= scheduledUntil && log.allConfirmed() && nic.serving() && remote.serving() && nic.card.unacknowledged() == 0
        && remote.card.unacknowledged() == 0;
  }

  /**
   * Runs until {@link #settled} (then a little longer, for DMAs of messages already acknowledged)
   * or until model time {@code limitNs}. Returns whether it settled.
   */
  public boolean runUntilSettled(long limitNs) {
    long step = settings.timing().lTimerIntervalNs();
    while (clock.now() < limitNs) {
      clock.runUntil(Math.min(limitNs, clock.now() + step));
      if (settled()) {
        clock.runUntil(clock.now() + 10 * step);
        return true;
      }
    }
    return false;
  }

  private Side side(String name) {
    if (nic.name.equals(name)) {
      return nic;
    }
    if (remote.name.equals(name)) {
      return remote;
    }
    throw new IllegalArgumentException("nic=" + name + " not in {" + nic.name + "," + REMOTE + "}");
  }

  /** The recoveries of one card (not the false alarms), Table 3's components each. */
  public List<RecoveryBreakdown> breakdowns(String name) {
    Side s = side(name);
    List<RecoveryBreakdown> out = new ArrayList<>();
    List<FaultToleranceDaemon.Recovery> rs = s.daemon.recoveries().stream().filter(r -> !r.falseAlarm()).toList();
    for (int i = 0; i < rs.size(); i++) {
      FaultToleranceDaemon.Recovery r = rs.get(i);
      long until = i + 1 < rs.size() ? rs.get(i + 1).interruptAt() : Long.MAX_VALUE;
      List<Long> reopened = s.recoveredAt.stream().filter(t -> t >= r.doneAt() && t < until).toList();
      long faultAt = s.card.faultActivatedAt() >= 0 && s.card.faultActivatedAt() <= r.interruptAt()
          ? s.card.faultActivatedAt() : r.interruptAt();
      out.add(RecoveryBreakdown.of(name, mode, faultAt, r, reopened));
    }
    return out;
  }

  public Optional<RecoveryBreakdown> breakdown(String name) {
    List<RecoveryBreakdown> all = breakdowns(name);
    return all.isEmpty() ? Optional.empty() : Optional.of(all.get(0));
  }

  public List<FaultToleranceDaemon.Recovery> recoveries(String name) {
    return side(name).daemon.recoveries();
  }

  public McpFirmware card(String name) {
    return side(name).card;
  }

  public PortLibrary library(String name, int port) {
    return side(name).libraries.get(port);
  }

  public EventQueue clock() {
    return clock;
  }

  /** Detection and recovery steps of both cards, in the order they happened. */
  public List<RecoveryEvent> events() {
    return List.copyOf(events);
  }

  public DeliveryLog log() {
    return log;
  }

  public McpMode mode() {
    return mode;
  }

  public String nicName() {
    return nic.name;
  }
}
