package io.rackfabric.fabric.management;

import io.rackfabric.fabric.link.DataLinkState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A device's configuration space (AS-FM section 3.1): up to 16 apertures of 4 GiB, addressed in
 * 32-bit registers. Every capability structure sits in aperture 0: the baseline at 100h with its
 * port records, then the spanning tree, then the route of PI-5 events; an endpoint's path table
 * fills aperture 1. A read of anything else is an error result, never an
 * exception; a write that cannot be applied is ignored and counted, as a PI-4 write has no reply.
 */
public final class ConfigurationSpace {

  public static final int APERTURES = 16;
  /** A PI-4 read or write moves at most eight 32-bit registers (AS-FM section 3.2). */
  public static final int MAX_DWORDS = 8;
  private static final long APERTURE_BYTES = 1L << 32;

  private final DeviceDescription device;
  private final List<TreeMap<Long, ConfigRegion>> apertures = new ArrayList<>();
  private final List<PortRecord> ports = new ArrayList<>();
  private final SpanningTreeCapability spanningTree;
  private final EventRouteCapability eventRoute = new EventRouteCapability();
  /** An endpoint's path table, in aperture 1; null for a switch. */
  private final PathTableCapability pathTable;
  /** Each NTB port's windows, in aperture 2 (see {@link #loadNtbWindows}); by port number. */
  private final Map<Integer, NtbWindowCapability> ntbWindows = new TreeMap<>();
  private int readOnlyWrites;
  private int malformedWrites;
  private int writesToNothing;

  private ConfigurationSpace(DeviceDescription device) {
    this.device = device;
    for (int i = 0; i < APERTURES; i++) {
      apertures.add(new TreeMap<>());
    }
    spanningTree = new SpanningTreeCapability(device.candidatePriority(), eventRoute.offset());
    BaselineCapability.GeneralInfo info = new BaselineCapability.GeneralInfo(
        device.type(), device.maxPayload(), device.serial(), device.ports().size(), -1);
    add(new BaselineCapability(info, spanningTree.offset()));
    add(spanningTree);
    add(eventRoute);
    for (PortDescription port : device.ports()) {
      PortRecord record = new PortRecord(port);
      ports.add(record);
      add(record);
    }
    pathTable = device.type() == DeviceType.ENDPOINT ? new PathTableCapability() : null;
    if (pathTable != null) {
      apertures.get(PathTableCapability.APERTURE).put(pathTable.offset(), pathTable);
    }
  }

  /** The configuration space {@code device}'s capabilities start with. */
  public static ConfigurationSpace of(DeviceDescription device) {
    return new ConfigurationSpace(device);
  }

  /**
   * NTB port {@code port} gets its window capability ({@link NtbWindowCapability}), holding the
   * windows the rack's file programmed it with.
   *
   * @throws IllegalArgumentException naming the value when the port is no NTB port of the device,
   *     has its capability already, or a side has more windows than the capability has slots
   */
  public void loadNtbWindows(int port, List<io.rackfabric.fabric.ntb.NtbBar> linkBars,
      List<io.rackfabric.fabric.ntb.NtbBar> virtualBars) {
    if (portRecord(port).info().kind() != PortKind.NTB) {
      throw new IllegalArgumentException(device.id() + ": port=" + port + " is "
          + portRecord(port).info().kind() + ", not an NTB port");
    }
    NtbWindowCapability c = new NtbWindowCapability(port, linkBars, virtualBars);
    if (ntbWindows.putIfAbsent(port, c) != null) {
      throw new IllegalArgumentException(device.id() + ": port=" + port + " has its NTB windows already");
    }
    apertures.get(NtbWindowCapability.APERTURE).put(c.offset(), c);
  }

  private void add(ConfigRegion region) {
    apertures.get(0).put(region.offset(), region);
  }

  public DeviceDescription device() {
    return device;
  }

  /**
   * {@code dwords} registers from {@code offset} of {@code aperture}, or an error naming what is
   * not there.
   *
   * @param ingressPort the port the read came in through (the general information reports it),
   *     -1 when the device reads itself
   */
  public ReadResult read(int aperture, long offset, int dwords, int ingressPort) {
    String bad = checkAccess(aperture, offset, dwords);
    if (bad != null) {
      return ReadResult.failed(bad);
    }
    ConfigRegion region = regionFor(aperture, offset, dwords);
    if (region == null) {
      return ReadResult.failed(String.format("aperture %d offset=%Xh dwords=%d is in no capability",
          aperture, offset, dwords));
    }
    int first = (int) ((offset - region.offset()) / 4);
    int[] data = new int[dwords];
    for (int i = 0; i < dwords; i++) {
      data[i] = region.read(first + i, ingressPort);
    }
    return ReadResult.ok(data);
  }

  /** Writes {@code data} from {@code offset} of {@code aperture}; what cannot be applied is counted. */
  public WriteOutcome write(int aperture, long offset, int[] data) {
    ConfigRegion region = checkAccess(aperture, offset, data.length) == null
        ? regionFor(aperture, offset, data.length) : null;
    if (region == null) {
      writesToNothing++;
      return WriteOutcome.NO_SUCH_FIELD;
    }
    int index = (int) ((offset - region.offset()) / 4);
    if (!region.wellFormed(index, data)) {
      malformedWrites++;
      return WriteOutcome.MALFORMED;
    }
    if (!region.write(index, data.clone())) {
      readOnlyWrites++;
      return WriteOutcome.READ_ONLY;
    }
    return WriteOutcome.APPLIED;
  }

  private static String checkAccess(int aperture, long offset, int dwords) {
    if (aperture < 0 || aperture >= APERTURES) {
      return "aperture=" + aperture + " not in [0," + (APERTURES - 1) + "]";
    }
    if (dwords < 1 || dwords > MAX_DWORDS) {
      return "dwords=" + dwords + " not in [1," + MAX_DWORDS + "]";
    }
    if (offset < 0 || offset + 4L * dwords > APERTURE_BYTES) {
      return String.format("offset=%Xh dwords=%d outside the aperture's 4 GiB", offset, dwords);
    }
    if (offset % 4 != 0) {
      return String.format("offset=%Xh not on a 32-bit register", offset);
    }
    return null;
  }

  /** The region holding all of [offset, offset + 4 dwords), or null. */
  private ConfigRegion regionFor(int aperture, long offset, int dwords) {
    Map.Entry<Long, ConfigRegion> e = apertures.get(aperture).floorEntry(offset);
    if (e == null) {
      return null;
    }
    ConfigRegion region = e.getValue();
    return offset + 4L * dwords <= region.offset() + 4L * region.dwords() ? region : null;
  }

  /** Port {@code port}'s state changed (its data link layer says so). */
  public void setPortState(int port, DataLinkState state, DataLinkState peerState) {
    portRecord(port).setState(state, peerState);
  }

  /** Port {@code port}'s state as its record says. */
  public DataLinkState portState(int port) {
    return portRecord(port).info().state();
  }

  /** Port {@code port}'s peer's state as its record says. */
  public DataLinkState peerState(int port) {
    return portRecord(port).info().peerState();
  }

  /** Whether the fabric manager asked port {@code port} to be DL_Active (its control register). */
  public boolean activationRequested(int port) {
    return (portRecord(port).control() & 1) != 0;
  }

  private PortRecord portRecord(int port) {
    if (port < 0 || port >= ports.size()) {
      throw new IllegalArgumentException(device.id() + ": port=" + port + " not in [0," + (ports.size() - 1) + "]");
    }
    return ports.get(port);
  }

  /** Writes ignored because they touched a read-only field. */
  public int readOnlyWrites() {
    return readOnlyWrites;
  }

  /** Writes ignored because they were malformed (a path table's entry not written whole, a value out of range). */
  public int malformedWrites() {
    return malformedWrites;
  }

  /** Writes ignored because nothing is there (or outside every aperture). */
  public int writesToNothing() {
    return writesToNothing;
  }

  SpanningTreeCapability spanningTree() {
    return spanningTree;
  }

  EventRouteCapability eventRoute() {
    return eventRoute;
  }

  /** The NTB ports' window capabilities, by port number. */
  java.util.Collection<NtbWindowCapability> ntbWindows() {
    return ntbWindows.values();
  }

  /** The path table an endpoint holds; null for a switch. */
  PathTableCapability pathTable() {
    return pathTable;
  }
}
