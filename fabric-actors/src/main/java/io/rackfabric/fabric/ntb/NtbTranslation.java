package io.rackfabric.fabric.ntb;

import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.Completion;
import io.rackfabric.fabric.tlp.MemRead;
import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.tlp.Tlp;

/**
 * Address and requester-ID translation through one NTB port, in both directions. A memory request
 * crosses only if it hits a BAR on the side it arrives at (the one-way rule of seeds/000 3.3):
 * a write to the translated address on the far side is serviced there and never comes back.
 * Requests get a proxy requester ID in the domain they enter; completions coming back through the
 * NTB are given their original requester ID again.
 */
public final class NtbTranslation {

  private final NtbConfig config;
  private final int linkSideBus;
  private final int linkSideDevice;
  /** Link-domain requesters, proxied in the virtual domain. */
  private final RequesterIdTable linkRequesters = new RequesterIdTable();
  /** Virtual-domain requesters, proxied in the link (switch) domain. */
  private final RequesterIdTable virtualRequesters = new RequesterIdTable();

  /**
   * @param linkSideBus the switch's internal bus, where the link-side endpoint lives
   * @param linkSideDevice the link-side endpoint's device number (the port number)
   */
  public NtbTranslation(NtbConfig config, int linkSideBus, int linkSideDevice) {
    this.config = config;
    // A virtual switch without an upstream port has no internal bus yet (-1): use bus 0 until one
    // is configured, rather than failing on every request.
    this.linkSideBus = Math.max(0, linkSideBus);
    this.linkSideDevice = linkSideDevice;
  }

  public NtbConfig config() {
    return config;
  }

  public int linkSideBdf() {
    return Bdf.of(linkSideBus, linkSideDevice, 0);
  }

  /**
   * A TLP leaving the switch domain into the virtual (slave) domain. Returns the translated TLP,
   * or null when it may not cross (no link-side BAR, unknown proxy, or requester table full).
   */
  public Tlp toVirtual(Tlp tlp) {
    if (tlp instanceof Completion c) {
      int original = virtualRequesters.original(proxyIndex(c.requester(), linkSideBus, linkSideDevice));
      return original < 0 ? null : c.withRequester(original);
    }
    return relay(tlp, config.linkBars().isEmpty() ? null : config::linkBar, linkRequesters,
        config.virtualSideBdf()); // configuration and messages never cross an NTB
  }

  /**
   * A TLP arriving from the virtual (slave) domain, to enter the switch domain. Returns the
   * translated TLP, or null when it hits no virtual-side BAR or cannot be proxied.
   */
  public Tlp toLink(Tlp tlp) {
    if (tlp instanceof Completion c) {
      int vBus = Bdf.bus(config.virtualSideBdf());
      int vDev = Bdf.device(config.virtualSideBdf());
      int original = linkRequesters.original(proxyIndex(c.requester(), vBus, vDev));
      return original < 0 ? null : c.withRequester(original);
    }
    return relay(tlp, config.virtualBars().isEmpty() ? null : config::virtualBar, virtualRequesters,
        linkSideBdf());
  }

  /** Relays a memory request that hits a BAR of {@code bars}, with a proxy requester ID. */
  private static Tlp relay(
      Tlp tlp, java.util.function.LongFunction<NtbBar> bars, RequesterIdTable table, int proxyBase) {
    long address;
    if (tlp instanceof MemWrite w) {
      address = w.address();
    } else if (tlp instanceof MemRead r) {
      address = r.address();
    } else {
      return null;
    }
    NtbBar bar = bars == null ? null : bars.apply(address);
    if (bar == null) {
      return null;
    }
    int proxy = proxyFor(table, tlp.requester(), proxyBase);
    if (proxy < 0) {
      return null;
    }
    long translated = bar.translate(address);
    return tlp instanceof MemWrite w
        ? w.withAddress(translated).withRequester(proxy)
        : ((MemRead) tlp).withAddress(translated).withRequester(proxy);
  }

  private static int proxyFor(RequesterIdTable table, int requester, int endpointBdf) {
    int index = table.indexFor(requester);
    return index < 0 ? -1 : Bdf.of(Bdf.bus(endpointBdf), Bdf.device(endpointBdf), index);
  }

  private static int proxyIndex(int proxy, int bus, int device) {
    return Bdf.bus(proxy) == bus && Bdf.device(proxy) == device ? Bdf.function(proxy) : -1;
  }
}
