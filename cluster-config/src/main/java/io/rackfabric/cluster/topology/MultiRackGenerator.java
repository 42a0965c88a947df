package io.rackfabric.cluster.topology;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.ntb.NtbBar;
import io.rackfabric.fabric.ntb.NtbConfig;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * Several Ladon racks joined by an inter-rack switch level, in one JVM: the scale target of issue
 * 6 (at least 1,000 hosts). Rack {@code k} (1-based) is a generated Ladon rack (see {@link
 * LadonRackGenerator}) whose ids carry the prefix {@code rK-} ({@code r3-ch17}, {@code r3-tor});
 * its {@code tor} gets one more VS1 downstream port, {@code to-spine}, cabled to NTB port {@code
 * rK} of the chip {@code spine}.
 *
 * <p>Addresses: in every rack's MH domain the other racks appear in an aperture above the rack's
 * own space, from {@link #aperture} on, one {@code P} (the rack's PMS1: its MH and its CHs'
 * primary slots) per rack, rack {@code j} at {@code aperture + (j - 1) P}. {@code tor.to-spine}
 * claims the aperture; the spine port's virtual-side BAR relays it into the spine's domain at
 * {@code (j - 1) P}, where port {@code rJ}'s link-side BAR takes it into rack {@code j} at
 * address 0. So rack i's MMH writes into rack j's CH c at {@code aperture + (j - 1) P + cL}.
 *
 * <p>The topology model has one {@code global-memory} and one {@code control-plane} section, so
 * the joined fabric carries neither: no host software, no control-plane boot, NTB requester-ID
 * tables filled on first use. It is a data-plane fabric.
 */
public final class MultiRackGenerator {

  /** The spine numbers its NTB ports 1..31 after its (unlinked) upstream port 0. */
  public static final int MAX_RACKS = 31;
  public static final int DEFAULT_HOSTS_PER_RACK = 48;

  private static final long GIB = 1L << 30;
  private static final LinkParameters LINK = new LinkParameters(3, 4, 5);

  private MultiRackGenerator() {}

  /**
   * Where rack {@code j}'s PMS1 appears in every rack's MH domain: above PMS2 ({@code 2P}), at
   * the next multiple of the racks' combined size, so the aperture never meets a rack's own space.
   */
  public static long aperture(GlobalMemoryLayout rackLayout) {
    return 4 * rackLayout.pms2Base();
  }

  /** The address rack {@code from}'s MMH writes to reach {@code offset} into rack {@code to}'s CH {@code ch}. */
  public static long remoteAddress(GlobalMemoryLayout rackLayout, int to, int ch, long offset) {
    return aperture(rackLayout) + (to - 1L) * rackLayout.pms2Base() + ch * rackLayout.localSubspace() + offset;
  }

  /** The layout each rack of a {@code hostsPerRack}-CH fabric uses: L = 32GiB, P = 2TiB. */
  public static GlobalMemoryLayout rackLayout(int hostsPerRack) {
    return GlobalMemoryLayout.create(32 * GIB, hostsPerRack, 2L << 40);
  }

  /**
   * @throws IllegalArgumentException naming the value when racks is not in 1..{@value #MAX_RACKS}
   *     or the rack layout does not fit
   */
  public static Topology generate(int racks, int hostsPerRack) {
    Topology built = build(racks, hostsPerRack);
    Topology loaded;
    try {
      loaded = TopologyLoader.parse(TopologyWriter.write(built), built.source());
    } catch (TopologyException e) {
      throw new IllegalStateException("generated fabric " + built.name() + " fails validation: "
          + String.join("; ", e.problems().subList(0, Math.min(5, e.problems().size()))), e);
    }
    return loaded;
  }

  static Topology build(int racks, int hostsPerRack) {
    if (racks < 1 || racks > MAX_RACKS) {
      throw new IllegalArgumentException("racks=" + racks + " not in 1.." + MAX_RACKS
          + " (the spine's NTB ports are numbered 1..31)");
    }
    GlobalMemoryLayout layout = rackLayout(hostsPerRack);
    long p = layout.pms2Base();
    long aperture = aperture(layout);
    if (Long.numberOfLeadingZeros(aperture + racks * p - 1) < 64 - layout.addressBits()) {
      throw new IllegalArgumentException("racks=" + racks + " x " + p + " bytes from aperture " + aperture
          + " run past " + layout.addressBits() + " address bits");
    }
    Topology one = LadonRackGenerator.build(layout, LadonRackGenerator.Placement.SINGLE_NODE,
        LadonRackGenerator.DEFAULT_HOST, LadonRackGenerator.DEFAULT_BASE_PORT);
    String node = one.nodes().get(0).name();
    AddressRange whole = AddressRange.ofSize(aperture, racks * p);

    List<SwitchSpec> switches = new ArrayList<>();
    List<EndpointSpec> endpoints = new ArrayList<>();
    List<LinkSpec> links = new ArrayList<>();
    List<PortConfig> spinePorts = new ArrayList<>();
    // The spine's upstream port roots nothing; it gives the internal bus the NTB ports' proxy IDs use.
    spinePorts.add(new PortConfig("up", 0, PortRole.UPSTREAM, 1, new BridgeRegisters(0, 1, 1, null, null), null));
    for (int k = 1; k <= racks; k++) {
      String prefix = "r" + k + "-";
      int spineBus = 0;
      for (SwitchSpec s : one.switches()) {
        List<PortConfig> ports = new ArrayList<>(s.ports());
        if (s.id().equals("tor")) {
          PortConfig up = ports.get(0);
          BridgeRegisters b = up.bridge();
          spineBus = b.subordinateBus() + 1;
          // The MMH's domain now reaches the spine cable's bus too.
          ports.set(0, up.withBridge(new BridgeRegisters(b.primaryBus(), b.secondaryBus(), spineBus,
              b.memory(), b.prefetchable())));
          ports.add(new PortConfig("to-spine", ports.size(), PortRole.DOWNSTREAM, 1,
              new BridgeRegisters(b.secondaryBus(), spineBus, spineBus, null, whole), null));
        }
        switches.add(new SwitchSpec(prefix + s.id(), node, ports, s.multicast()));
      }
      for (EndpointSpec e : one.endpoints()) {
        endpoints.add(new EndpointSpec(prefix + e.id(), node, e.bdf(), e.root(), e.bars(), e.relay(), e.device()));
      }
      for (LinkSpec l : one.links()) {
        links.add(new LinkSpec(prefix + l.a(), prefix + l.b(), l.params()));
      }
      // Into the spine: the whole aperture relayed to spine address 0; out of it: rack k's slot
      // of the spine's domain relayed to rack k's address 0.
      spinePorts.add(new PortConfig("r" + k, k, PortRole.NTB, 1, null, new NtbConfig(Bdf.of(spineBus, 0, 0),
          List.of(new NtbBar(AddressRange.ofSize((k - 1) * p, p), 0)),
          List.of(new NtbBar(whole, 0)))));
      links.add(new LinkSpec(prefix + "tor.to-spine", "spine.r" + k, LINK));
    }
    switches.add(new SwitchSpec("spine", node, spinePorts, List.of()));
    String name = "multirack-" + racks + "x" + hostsPerRack;
    return new Topology(name, one.nodes(), switches, endpoints, links, "generated " + name);
  }

  /** The compute hosts of a generated fabric, rack by rack: {@code rK-chI}. */
  public static List<String> computeHosts(int racks, int hostsPerRack) {
    List<String> ids = new ArrayList<>();
    for (int k = 1; k <= racks; k++) {
      for (int i = 1; i <= hostsPerRack; i++) {
        ids.add("r" + k + "-" + LadonRackGenerator.chId(i));
      }
    }
    return ids;
  }
}
