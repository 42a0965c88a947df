package io.rackfabric.fabric.ntb;

import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.Completion;
import io.rackfabric.fabric.tlp.MemRead;
import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.tlp.Tlp;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

/**
 * Address and requester-ID translation through one NTB port, in both directions. A memory request
 * crosses only if it hits a BAR on the side it arrives at (the one-way rule of Ladon section 3.3):
 * a write to the translated address on the far side is serviced there and never comes back.
 * Requests get a proxy requester ID in the domain they enter (see {@link ProxyIdSpace});
 * completions coming back through the NTB are given their original requester ID again.
 *
 * <p>Not thread-safe: owned by one port actor (or one {@code rack route} walk).
 */
public final class NtbTranslation {

  private final NtbConfig config;
  private final int internalBus;
  private final int portNumber;
  private final ProxyIdSpace virtualSpace;
  private final ProxyIdSpace linkSpace;
  /** Link-domain requesters, proxied in the virtual domain. */
  private final RequesterIdTable toVirtual;
  /** Virtual-domain requesters, proxied in the link (switch) domain. */
  private final RequesterIdTable toLink;
  private final List<RequesterIdEntry> unplaced = new ArrayList<>();
  /** Refusals counted by tables this translation no longer has (the proxy IDs changed). */
  private final long refusedToVirtualBefore;
  private final long refusedToLinkBefore;

  /**
   * @param internalBus the switch's internal bus, where the link-side endpoint lives unless the
   *     NTB has a link-side bus of its own; -1 while the virtual switch has none (bus 0 is used)
   * @param portNumber the NTB port's number, the link-side endpoint's device number there
   */
  public NtbTranslation(NtbConfig config, int internalBus, int portNumber) {
    this(config, internalBus, portNumber, null, null, 0, 0);
  }

  private NtbTranslation(NtbConfig config, int internalBus, int portNumber,
      RequesterIdTable keepToVirtual, RequesterIdTable keepToLink,
      long refusedToVirtualBefore, long refusedToLinkBefore) {
    this.config = config;
    this.refusedToVirtualBefore = refusedToVirtualBefore;
    this.refusedToLinkBefore = refusedToLinkBefore;
    this.internalBus = internalBus;
    this.portNumber = portNumber;
    this.virtualSpace = ProxyIdSpace.virtualSide(config);
    this.linkSpace = ProxyIdSpace.linkSide(config, internalBus, portNumber);
    this.toVirtual = keepToVirtual != null ? keepToVirtual : new RequesterIdTable(virtualSpace.capacity());
    this.toLink = keepToLink != null ? keepToLink : new RequesterIdTable(linkSpace.capacity());
    for (RequesterIdEntry e : config.requesterIds()) {
      if (!table(e.direction()).place(e.index(), e.original())) {
        unplaced.add(e);
      }
    }
  }

  /**
   * This NTB after its configuration or its switch's internal bus changed. The requester tables
   * (entries taken on first use included) carry over as long as the proxy IDs stay the same, so
   * completions under way still find their requesters; programmed entries of {@code next} are
   * added. When the proxy IDs change (a new link-side bus, another virtual-side ID, a new internal
   * bus) the tables start afresh from {@code next}'s programmed entries.
   */
  public NtbTranslation reconfigured(NtbConfig next, int nextInternalBus) {
    boolean sameIds = ProxyIdSpace.virtualSide(next).equals(virtualSpace)
        && ProxyIdSpace.linkSide(next, nextInternalBus, portNumber).equals(linkSpace);
    return sameIds
        ? new NtbTranslation(next, nextInternalBus, portNumber, toVirtual, toLink,
            refusedToVirtualBefore, refusedToLinkBefore)
        : new NtbTranslation(next, nextInternalBus, portNumber, null, null,
            refused(NtbDirection.TO_VIRTUAL), refused(NtbDirection.TO_LINK));
  }

  public NtbConfig config() {
    return config;
  }

  /**
   * Programmed entries of the configuration that could not be placed because their index already
   * held another requester (taken on first use before the entry was configured).
   */
  public List<RequesterIdEntry> unplaced() {
    return List.copyOf(unplaced);
  }

  /** The link-side endpoint's own ID in the switch's domain. */
  public int linkSideBdf() {
    return config.linkSideBus() >= 0
        ? Bdf.of(config.linkSideBus(), 0, 0)
        : Bdf.of(Math.max(0, internalBus), portNumber, 0);
  }

  /** The proxy IDs handed out to requests crossing in {@code direction}. */
  public ProxyIdSpace space(NtbDirection direction) {
    return direction == NtbDirection.TO_VIRTUAL ? virtualSpace : linkSpace;
  }

  public int capacity(NtbDirection direction) {
    return space(direction).capacity();
  }

  public int used(NtbDirection direction) {
    return table(direction).used();
  }

  /** Requests refused in {@code direction} because its table was full. */
  public long refused(NtbDirection direction) {
    return table(direction).refused()
        + (direction == NtbDirection.TO_VIRTUAL ? refusedToVirtualBefore : refusedToLinkBefore);
  }

  /**
   * Programs {@code original}'s entry in {@code direction}'s table (see {@link
   * RequesterIdTable#program}); returns the proxy ID it now crosses under, or -1 when the table is
   * full. The caller records the entry in the configuration ({@link #programmedEntry}).
   */
  public int program(NtbDirection direction, int original) {
    int index = table(direction).program(original);
    return index < 0 ? -1 : space(direction).id(index);
  }

  /** The entry {@link #program} made for {@code original}, or null if it has none. */
  public RequesterIdEntry programmedEntry(NtbDirection direction, int original) {
    int index = table(direction).indexOf(original);
    return index >= 0 && table(direction).isProgrammed(index)
        ? new RequesterIdEntry(direction, index, original)
        : null;
  }

  /** The proxy ID {@code original} crosses under in {@code direction} so far, or -1. */
  public int proxyId(NtbDirection direction, int original) {
    int index = table(direction).indexOf(original);
    return index < 0 ? -1 : space(direction).id(index);
  }

  private RequesterIdTable table(NtbDirection direction) {
    return direction == NtbDirection.TO_VIRTUAL ? toVirtual : toLink;
  }

  /**
   * A TLP leaving the switch domain into the virtual (slave) domain. Returns the translated TLP,
   * or null when it may not cross (no link-side BAR, unknown proxy, or requester table full).
   */
  public Tlp toVirtual(Tlp tlp) {
    if (tlp instanceof Completion c) {
      int original = toLink.original(linkSpace.indexOf(c.requester()));
      return original < 0 ? null : c.withRequester(original);
    }
    // Configuration requests and messages never cross an NTB.
    return relay(tlp, config.linkBars().isEmpty() ? null : config::linkBar, toVirtual, virtualSpace);
  }

  /**
   * A TLP arriving from the virtual (slave) domain, to enter the switch domain. Returns the
   * translated TLP, or null when it hits no virtual-side BAR or cannot be proxied.
   */
  public Tlp toLink(Tlp tlp) {
    if (tlp instanceof Completion c) {
      int original = toVirtual.original(virtualSpace.indexOf(c.requester()));
      return original < 0 ? null : c.withRequester(original);
    }
    return relay(tlp, config.virtualBars().isEmpty() ? null : config::virtualBar, toLink, linkSpace);
  }

  /** Relays a memory request that hits a BAR of {@code bars}, with a proxy requester ID. */
  private static Tlp relay(Tlp tlp, LongFunction<NtbBar> bars, RequesterIdTable table, ProxyIdSpace space) {
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
    int index = table.indexFor(tlp.requester());
    if (index < 0) {
      return null;
    }
    int proxy = space.id(index);
    long translated = bar.translate(address);
    return tlp instanceof MemWrite w
        ? w.withAddress(translated).withRequester(proxy)
        : ((MemRead) tlp).withAddress(translated).withRequester(proxy);
  }
}
