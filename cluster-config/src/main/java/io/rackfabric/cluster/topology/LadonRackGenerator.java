package io.rackfabric.cluster.topology;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.ntb.NtbConfig;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.ntb.NtbBar;
import io.rackfabric.fabric.routing.MulticastGroup;
import io.rackfabric.host.failover.LadonAddresses;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.NtbProgramming;
import io.rackfabric.host.memory.MemorySizes;
import io.rackfabric.host.memory.Plane;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds a Ladon rack (Ladon sections 4.1, 4.2, 5.1) of any size the hardware allows, with exactly the
 * structure of the hand-written {@code ladon-testbed.conf}: a {@code tor} switch whose VS1 has the
 * MMH upstream and the NIC, {@code to-pri} and {@code to-sec} downstream, whose VS2 has the BMH;
 * two NTB switch chips {@code nt-pri} and {@code nt-sec} holding every CH's primary and secondary
 * NTB port; and per CH a root endpoint {@code chI} above its two root ports {@code chI-rp}. Every
 * window and NTB BAR comes from the {@link GlobalMemoryLayout}, so N = 2 with the paper's layout
 * reproduces the testbed file.
 *
 * <p>The result has been through the loader's validation: it is rendered with {@link
 * TopologyWriter} and parsed back with {@link TopologyLoader#parse}, and must come back equal.
 */
public final class LadonRackGenerator {

  /** Where the rack's components run. */
  public enum Placement {
    /** Everything on one node {@code node-1}: one JVM, for demos and tests. */
    SINGLE_NODE,
    /**
     * As the testbed: {@code node-switch} (the switch chips and the NIC, listed first because it
     * seeds the cluster and must outlive the MMH), {@code node-mmh}, {@code node-bmh}, then
     * {@code node-chI}; Artery ports count up from the base port in that order.
     */
    ONE_NODE_PER_HOST,
    /**
     * Three JVMs, as issue 6 places a full rack: {@code node-switch} (the switch chips and the
     * NIC), {@code node-mmh} (the MMH and the first half of the CHs with their root ports) and
     * {@code node-bmh} (the BMH and the other half).
     */
    THREE_NODES
  }

  /**
   * An NTB switch chip numbers its NTB ports 1..31 after its upstream port 0 (a port number is its
   * device number on the internal bus); a rack with more CHs spreads each plane over several chips.
   */
  public static final int MAX_NTB_PORTS_PER_CHIP = 31;
  /** What the fail-over's protocol words can name ({@link LadonAddresses#MAX_HOSTS}). */
  public static final int MAX_COMPUTE_HOSTS = LadonAddresses.MAX_HOSTS;
  public static final String DEFAULT_HOST = "127.0.0.1";
  public static final int DEFAULT_BASE_PORT = 25521;

  private static final long GIB = 1L << 30;
  /**
   * The generated rack puts the NIC's BARs in the MH's 32-bit MMIO hole [3GiB, 4GiB), as a BIOS
   * would and as the testbed does, so the MH's local subspace must reach 4GiB.
   */
  static final long MIN_LOCAL_SUBSPACE = 4 * GIB;
  /** The testbed's "8GB of memory" per server, capped by L. */
  private static final long HOST_MEMORY = 8 * GIB;
  private static final long MMIO_HOLE = 3 * GIB;
  private static final long NIC_BASE = 0xE000_0000L;
  /** The 82599's BARs: 512 KiB registers, 16 KiB MSI-X table, 16 KiB per VF for 64 VFs. */
  private static final List<AddressRange> NIC_BARS = List.of(
      AddressRange.ofSize(NIC_BASE, 512L << 10),
      AddressRange.ofSize(NIC_BASE + (512L << 10), 16L << 10),
      AddressRange.ofSize(NIC_BASE + (1L << 20), 1L << 20));
  /** The bridge window over the NIC's BARs: 2 MiB at 0xE0000000, as in the testbed. */
  private static final AddressRange NIC_WINDOW = AddressRange.ofSize(NIC_BASE, 2L << 20);
  private static final LinkParameters LINK = new LinkParameters(3, 4, 5);

  private LadonRackGenerator() {}

  /** A rack on 127.0.0.1 with Artery ports from 25521, as the testbed. */
  public static Topology generate(GlobalMemoryLayout layout, Placement placement) {
    return generate(layout, placement, DEFAULT_HOST, DEFAULT_BASE_PORT);
  }

  /**
   * @param host the Artery host of every node
   * @param basePort the first node's Artery port; the others take the following ones
   * @throws IllegalArgumentException naming the number when the layout has more than {@value
   *     #MAX_COMPUTE_HOSTS} compute hosts, its local subspace is below 4GiB, or the ports run past
   *     65535
   */
  public static Topology generate(
      GlobalMemoryLayout layout, Placement placement, String host, int basePort) {
    Topology built = build(layout, placement, host, basePort);
    // Validate as a file would be: write it, load it, and insist nothing changed on the way.
    String text = TopologyWriter.write(built);
    Topology loaded;
    try {
      loaded = TopologyLoader.parse(text, built.source());
    } catch (TopologyException e) {
      throw new IllegalStateException("generated rack " + built.name() + " fails validation: "
          + String.join("; ", e.problems()), e);
    }
    if (!loaded.equals(built)) {
      throw new IllegalStateException("generated rack " + built.name()
          + " does not load back as generated (a TopologyWriter bug)");
    }
    return loaded;
  }

  /** What {@code generate} would do, without the validation round trip. */
  static Topology build(GlobalMemoryLayout layout, Placement placement, String host, int basePort) {
    int n = layout.computeHosts();
    if (n > MAX_COMPUTE_HOSTS) {
      throw new IllegalArgumentException("hosts=" + n + ": at most " + MAX_COMPUTE_HOSTS
          + " compute hosts (what the fail-over protocol's words can name)");
    }
    if (Long.compareUnsigned(layout.localSubspace(), MIN_LOCAL_SUBSPACE) < 0) {
      throw new IllegalArgumentException("local-subspace=" + MemorySizes.size(layout.localSubspace())
          + " is below 4GiB: the generated rack puts the NIC's BARs at 0xE0000000 in the MH's"
          + " 32-bit MMIO hole, inside the MH's local subspace");
    }
    String name = "ladon-" + n + "ch";
    Nodes nodes = new Nodes(placement, host, basePort, n);

    // Bus numbers, depth first as enumeration software assigns them. The MH's domain ends at the
    // NTB ports, so it never grows with N; each CH's root ports are a domain of their own.
    // Each plane's CHs spread evenly over as few NTB chips as hold them (one up to 31 CHs).
    int chips = (n + MAX_NTB_PORTS_PER_CHIP - 1) / MAX_NTB_PORTS_PER_CHIP;
    Buses mh = new Buses();
    int torInternal = mh.next();          // tor VS1's internal bus, below tor.mmh
    int nicBus = mh.next();
    int[][] chipBuses = new int[2][];     // per plane, per chip: link bus, internal bus
    for (Plane plane : Plane.values()) {
      chipBuses[plane.ordinal()] = new int[2 * chips];
      for (int c = 0; c < chips; c++) {
        chipBuses[plane.ordinal()][2 * c] = mh.next();
        chipBuses[plane.ordinal()][2 * c + 1] = mh.next();
      }
    }
    int mhSubordinate = mh.last();
    Buses ch = new Buses();
    int rpInternal = ch.next();
    int priBus = ch.next();
    int secBus = ch.next();
    int chSubordinate = ch.last();

    // Data-plane fail-over (Ladon section 5.3) needs two more things of the hardware: a copy of the
    // MH's control page in the top slot of PMS2, so that a CH whose primary link is down can reach
    // the MH's mailbox, and each plane's multicast page after its last CH slot, replicated by the
    // NTB chip to every CH's control page. Racks too large for those slots go without.
    LadonAddresses ladon = failoverFits(layout) ? new LadonAddresses(layout, GlobalMemorySpec.DEFAULT_CONTROL_PAGE) : null;

    // The MH's windows: each plane's CH slots, and VS1's upstream port over both planes and the NIC.
    AddressRange pms1Hosts = ladon == null ? layout.mhHostsRange(Plane.PRIMARY) : ladon.planeWindow(Plane.PRIMARY);
    AddressRange pms2Hosts = ladon == null ? layout.mhHostsRange(Plane.SECONDARY) : ladon.planeWindow(Plane.SECONDARY);
    AddressRange bothPlanes = new AddressRange(pms1Hosts.base(), pms2Hosts.limit());

    List<SwitchSpec> switches = new ArrayList<>();
    List<PortConfig> torPorts = new ArrayList<>(List.of(
        bridge("mmh", 0, PortRole.UPSTREAM, 1, 0, torInternal, mhSubordinate, NIC_WINDOW, bothPlanes),
        // VS2 holds only the BMH until a take-over moves ports to it (Ladon section 4.3).
        bridge("bmh", 1, PortRole.UPSTREAM, 2, 0, torInternal, torInternal, null, null),
        bridge("nic", 2, PortRole.DOWNSTREAM, 1, torInternal, nicBus, nicBus, NIC_WINDOW, null)));
    List<MulticastGroup> torMulticast = new ArrayList<>();
    List<SwitchSpec> ntbChips = new ArrayList<>();
    List<LinkSpec> chipLinks = new ArrayList<>();
    for (Plane plane : Plane.values()) {
      AddressRange hosts = plane == Plane.PRIMARY ? pms1Hosts : pms2Hosts;
      List<Integer> toPorts = new ArrayList<>();
      for (int c = 0; c < chips; c++) {
        int first = 1 + c * n / chips;
        int last = (c + 1) * n / chips;
        // A chip's window: its CHs' slots; the last chip's runs on to the plane's end (the
        // multicast page), the first starts where the plane does.
        long base = c == 0 ? hosts.base() : layout.mhHostsRange(plane).base() + (first - 1) * layout.localSubspace();
        long limit = c == chips - 1 ? hosts.limit()
            : layout.mhHostsRange(plane).base() + (long) last * layout.localSubspace() - 1;
        AddressRange window = new AddressRange(base, limit);
        int number = torPorts.size();
        String suffix = chips == 1 ? "" : "-" + (c + 1);
        String toPort = (plane == Plane.PRIMARY ? "to-pri" : "to-sec") + suffix;
        String chip = ntbChipId(plane, chips, c);
        int linkBus = chipBuses[plane.ordinal()][2 * c];
        int internal = chipBuses[plane.ordinal()][2 * c + 1];
        torPorts.add(bridge(toPort, number, PortRole.DOWNSTREAM, 1, torInternal, linkBus, internal, null, window));
        toPorts.add(number);
        ntbChips.add(ntbChip(chip, nodes.switches(), layout, ladon, plane, first, last, linkBus, internal,
            window, plane == Plane.PRIMARY ? priBus : secBus));
        chipLinks.add(link("tor." + toPort, chip + ".up"));
      }
      if (ladon != null && chips > 1) {
        // One chip no longer reaches every CH: tor copies the plane's multicast page to each.
        torMulticast.add(new MulticastGroup(plane.ordinal(), ladon.multicastPage(plane), toPorts));
      }
    }
    switches.add(new SwitchSpec("tor", nodes.switches(), torPorts, torMulticast));
    switches.addAll(ntbChips);
    AddressRange chPri = layout.chView(Plane.PRIMARY);
    AddressRange chSec = layout.chView(Plane.SECONDARY);
    for (int i = 1; i <= n; i++) {
      switches.add(new SwitchSpec(rp(i), nodes.ch(i), List.of(
          bridge("up", 0, PortRole.UPSTREAM, 1, 0, rpInternal, chSubordinate, null,
              new AddressRange(chPri.base(), chSec.limit())),
          bridge("pri", 1, PortRole.DOWNSTREAM, 1, rpInternal, priBus, priBus, null, chPri),
          bridge("sec", 2, PortRole.DOWNSTREAM, 1, rpInternal, secBus, secBus, null, chSec)),
          List.of()));
    }

    List<EndpointSpec> endpoints = new ArrayList<>();
    List<AddressRange> mhMemory = new ArrayList<>(mhMemory(layout.localSubspace()));
    if (ladon != null) {
      mhMemory.add(ladon.mhPms2Page());
    }
    // Roots on an upstream port take that port's primary bus, device 0, as the loader defaults it.
    endpoints.add(new EndpointSpec("mmh", nodes.mmh(), Bdf.of(0, 0, 0), true, mhMemory));
    endpoints.add(new EndpointSpec("bmh", nodes.bmh(), Bdf.of(0, 0, 0), true, mhMemory));
    endpoints.add(new EndpointSpec("nic", nodes.switches(), Bdf.of(nicBus, 0, 0), false, NIC_BARS));
    List<String> chIds = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      chIds.add(chId(i));
      endpoints.add(new EndpointSpec(chId(i), nodes.ch(i), Bdf.of(0, 0, 0), true,
          List.of(AddressRange.ofSize(0, Math.min(HOST_MEMORY, layout.localSubspace())))));
    }

    List<LinkSpec> links = new ArrayList<>();
    links.add(link("mmh", "tor.mmh"));
    links.add(link("bmh", "tor.bmh"));
    links.add(link("tor.nic", "nic"));
    links.addAll(chipLinks);
    for (int i = 1; i <= n; i++) {
      // The PCIe cables to the compute hosts.
      links.add(link(ntbChipOf(Plane.PRIMARY, n, chips, i) + "." + chId(i), rp(i) + ".pri"));
      links.add(link(ntbChipOf(Plane.SECONDARY, n, chips, i) + "." + chId(i), rp(i) + ".sec"));
    }
    for (int i = 1; i <= n; i++) {
      links.add(link(chId(i), rp(i) + ".up"));
    }

    Topology rack = new Topology(name, nodes.specs(), switches, endpoints, links, "generated " + name,
        new GlobalMemorySpec(layout, chIds, ladon == null ? null : "mmh", GlobalMemorySpec.DEFAULT_CONTROL_PAGE));
    if (ladon == null) {
      return rack;
    }
    // The MMH/BMH pair of the testbed: mmh roots VS1 on tor, bmh VS2.
    ControlPlaneSpec pair = ControlPlaneSection.pair(rack, "mmh", "bmh", (key, reason) -> {
      throw new IllegalStateException("generated rack " + name + ": control-plane." + key + ": " + reason);
    });
    return rack.withControlPlane(pair);
  }

  /**
   * An NTB switch chip: an upstream port over {@code plane}'s CH slots, one NTB port per CH, and,
   * with fail-over, the plane's multicast group: a write into its multicast page is copied to every
   * NTB port, whose second link-side BAR translates the page to its CH's control page.
   */
  private static SwitchSpec ntbChip(String id, String node, GlobalMemoryLayout layout, LadonAddresses ladon,
      Plane plane, int firstCh, int lastCh, int linkBus, int internalBus, AddressRange window, int rootPortBus) {
    List<PortConfig> ports = new ArrayList<>();
    ports.add(bridge("up", 0, PortRole.UPSTREAM, 1, linkBus, internalBus, internalBus, null, window));
    List<Integer> members = new ArrayList<>();
    for (int i = firstCh; i <= lastCh; i++) {
      int number = i - firstCh + 1;
      NtbProgramming p = LadonNtbWindows.of(layout, ladon, i, plane);
      // The virtual side sits below the CH's root port of this plane, at its secondary bus.
      ports.add(new PortConfig(chId(i), number, PortRole.NTB, 1, null,
          new NtbConfig(Bdf.of(rootPortBus, 0, 0), p.linkBars(), p.virtualBars())));
      members.add(number);
    }
    List<MulticastGroup> multicast = ladon == null
        ? List.of() : List.of(new MulticastGroup(0, ladon.multicastPage(plane), members));
    return new SwitchSpec(id, node, ports, multicast);
  }

  /** Whether the layout leaves the slots data-plane fail-over needs (see {@link LadonAddresses}). */
  static boolean failoverFits(GlobalMemoryLayout layout) {
    return layout.computeHosts() <= Long.divideUnsigned(layout.pms2Base(), layout.localSubspace()) - 3;
  }

  /**
   * The MH's DRAM, 8GiB at most, split around the 32-bit MMIO hole [3GiB, 4GiB) that holds the
   * NIC's BARs: [0, 3GiB) and the rest from 4GiB, all inside L.
   */
  private static List<AddressRange> mhMemory(long localSubspace) {
    long above = Math.min(HOST_MEMORY - MMIO_HOLE, localSubspace - 4 * GIB);
    return above > 0
        ? List.of(AddressRange.ofSize(0, MMIO_HOLE), AddressRange.ofSize(4 * GIB, above))
        : List.of(AddressRange.ofSize(0, MMIO_HOLE));
  }

  private static PortConfig bridge(String name, int number, PortRole role, int vs, int primary,
      int secondary, int subordinate, AddressRange memory, AddressRange prefetchable) {
    return new PortConfig(name, number, role, vs,
        new BridgeRegisters(primary, secondary, subordinate, memory, prefetchable), null);
  }

  private static LinkSpec link(String a, String b) {
    return new LinkSpec(a, b, LINK);
  }

  /** {@code nt-pri}/{@code nt-sec} with one chip per plane, else {@code nt-pri-1}, ... */
  private static String ntbChipId(Plane plane, int chips, int c) {
    String id = plane == Plane.PRIMARY ? "nt-pri" : "nt-sec";
    return chips == 1 ? id : id + "-" + (c + 1);
  }

  /** The NTB chip of {@code plane} holding CH {@code i}'s port (chips split the CHs evenly). */
  private static String ntbChipOf(Plane plane, int n, int chips, int i) {
    for (int c = 0; c < chips; c++) {
      if (i <= (c + 1) * n / chips) {
        return ntbChipId(plane, chips, c);
      }
    }
    throw new IllegalStateException("ch" + i + " beyond " + n + " hosts");
  }

  static String chId(int i) {
    return "ch" + i;
  }

  private static String rp(int i) {
    return chId(i) + "-rp";
  }

  /** Hands out bus numbers in order, below a root at bus 0. */
  private static final class Buses {
    private int last;

    int next() {
      if (last == 255) {
        throw new IllegalStateException("bus numbers run past 255");
      }
      return ++last;
    }

    int last() {
      return last;
    }
  }

  /** The node names of a placement, and their Artery addresses. */
  private static final class Nodes {
    private final Placement placement;
    private final List<NodeSpec> specs = new ArrayList<>();
    private final int n;

    Nodes(Placement placement, String host, int basePort, int n) {
      this.placement = placement;
      List<String> names = new ArrayList<>();
      this.n = n;
      if (placement == Placement.SINGLE_NODE) {
        names.add("node-1");
      } else if (placement == Placement.THREE_NODES) {
        names.add("node-switch");
        names.add("node-mmh");
        names.add("node-bmh");
      } else {
        names.add("node-switch");
        names.add("node-mmh");
        names.add("node-bmh");
        for (int i = 1; i <= n; i++) {
          names.add("node-" + chId(i));
        }
      }
      int lastPort = basePort + names.size() - 1;
      if (basePort < 1 || lastPort > 65535) {
        throw new IllegalArgumentException("base port " + basePort + " for " + names.size()
            + " nodes needs ports " + basePort + ".." + lastPort + ", outside 1..65535");
      }
      for (int i = 0; i < names.size(); i++) {
        specs.add(new NodeSpec(names.get(i), host, basePort + i));
      }
    }

    List<NodeSpec> specs() {
      return specs;
    }

    private String one(String perHost) {
      return placement == Placement.SINGLE_NODE ? "node-1" : perHost;
    }

    String switches() {
      return one("node-switch");
    }

    String mmh() {
      return one("node-mmh");
    }

    String bmh() {
      return one("node-bmh");
    }

    String ch(int i) {
      if (placement == Placement.THREE_NODES) {
        // The first half of the CHs beside the MMH, the rest beside the BMH.
        return i <= (n + 1) / 2 ? "node-mmh" : "node-bmh";
      }
      return one("node-" + chId(i));
    }
  }
}
