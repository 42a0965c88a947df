package io.rackfabric.fabric.ntb;

import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.wire.WireMessage;
import java.util.ArrayList;
import java.util.List;

/**
 * An NTB port's two endpoints. The link side sits in the switch's (master) domain, the virtual
 * side in the slave domain across the NTB's own link (Ladon section 3.3). Each side's BARs
 * translate toward the other side only: translation is one-way per BAR.
 *
 * <p>Requester IDs (Multi-peer "the Requester ID and Completer ID ... have to be translated"):
 * requests crossing get proxy IDs of the endpoint on the side they enter, see {@link
 * ProxyIdSpace}. The virtual-side endpoint sits alone below the slave domain's port, so with
 * device number 0 it numbers its proxies ARI-style, 256 of them. The link-side endpoint lives on
 * the switch's internal bus as device {@code port number}, where only its 8 function numbers
 * route back to it, unless it is given a bus of its own ({@code linkSideBus}): then it has 256
 * ARI proxies on that bus, and the switch routes that bus to the port.
 *
 * @param virtualSideBdf the virtual-side endpoint's ID in the slave domain; its bus (and device,
 *     when not 0) also name the proxy requester IDs used for requests relayed into that domain
 * @param linkSideBus the bus of the link-side endpoint's own, in the switch's domain (it must lie
 *     within the switch's bus range and be claimed by no bridge), or -1 to stay on the internal bus
 * @param requesterIds programmed requester-ID table entries, in the order they were programmed;
 *     requesters without an entry are given one on first use
 */
public record NtbConfig(
    int virtualSideBdf,
    int linkSideBus,
    List<NtbBar> linkBars,
    List<NtbBar> virtualBars,
    List<RequesterIdEntry> requesterIds)
    implements WireMessage {

  public NtbConfig {
    if (linkSideBus < -1 || linkSideBus > 255) {
      throw new IllegalArgumentException("linkSideBus=" + linkSideBus + " not in [-1,255] (-1: none)");
    }
    linkBars = List.copyOf(linkBars);
    virtualBars = List.copyOf(virtualBars);
    requesterIds = List.copyOf(requesterIds);
    checkDisjoint("link", linkBars);
    checkDisjoint("virtual", virtualBars);
    checkEntries(virtualSideBdf, linkSideBus, requesterIds);
  }

  /** An NTB whose link side stays on the internal bus and whose tables fill on first use. */
  public NtbConfig(int virtualSideBdf, List<NtbBar> linkBars, List<NtbBar> virtualBars) {
    this(virtualSideBdf, -1, linkBars, virtualBars, List.of());
  }

  private static void checkDisjoint(String side, List<NtbBar> bars) {
    for (int i = 0; i < bars.size(); i++) {
      for (int j = i + 1; j < bars.size(); j++) {
        if (bars.get(i).window().overlaps(bars.get(j).window())) {
          throw new IllegalArgumentException(
              side + "-side BARs overlap: " + bars.get(i).window() + " and " + bars.get(j).window());
        }
      }
    }
  }

  private static void checkEntries(int virtualSideBdf, int linkSideBus, List<RequesterIdEntry> entries) {
    for (int i = 0; i < entries.size(); i++) {
      RequesterIdEntry e = entries.get(i);
      int capacity = capacity(virtualSideBdf, linkSideBus, e.direction());
      if (e.index() >= capacity) {
        throw new IllegalArgumentException("requester-ID entry " + e + ": index=" + e.index()
            + " not below the " + capacity + " proxy IDs of the " + side(e.direction()) + " side");
      }
      for (int j = 0; j < i; j++) {
        RequesterIdEntry earlier = entries.get(j);
        if (earlier.direction() != e.direction()) {
          continue;
        }
        if (earlier.index() == e.index()) {
          throw new IllegalArgumentException("requester-ID entries " + earlier + " and " + e
              + " share index=" + e.index());
        }
        if (earlier.original() == e.original()) {
          throw new IllegalArgumentException("requester-ID entries " + earlier + " and " + e
              + " program requester " + Bdf.format(e.original()) + " twice");
        }
      }
    }
  }

  private static int capacity(int virtualSideBdf, int linkSideBus, NtbDirection direction) {
    if (direction == NtbDirection.TO_VIRTUAL) {
      return Bdf.device(virtualSideBdf) == 0 ? ProxyIdSpace.ARI_FUNCTIONS : ProxyIdSpace.FUNCTIONS;
    }
    return linkSideBus >= 0 ? ProxyIdSpace.ARI_FUNCTIONS : ProxyIdSpace.FUNCTIONS;
  }

  private static String side(NtbDirection direction) {
    return direction == NtbDirection.TO_VIRTUAL ? "virtual" : "link";
  }

  /** How many proxy IDs {@code direction}'s table has: 8, or 256 with ARI. */
  public int capacity(NtbDirection direction) {
    return capacity(virtualSideBdf, linkSideBus, direction);
  }

  public boolean linkSideClaims(long address) {
    return find(linkBars, address) != null;
  }

  /** Whether ID-routed TLPs for {@code bus} belong to this NTB's link-side endpoint. */
  public boolean linkSideClaimsBus(int bus) {
    return linkSideBus >= 0 && bus == linkSideBus;
  }

  public NtbBar linkBar(long address) {
    return find(linkBars, address);
  }

  public NtbBar virtualBar(long address) {
    return find(virtualBars, address);
  }

  private static NtbBar find(List<NtbBar> bars, long address) {
    for (NtbBar bar : bars) {
      if (bar.window().contains(address)) {
        return bar;
      }
    }
    return null;
  }

  /** The programmed index of {@code original} in {@code direction}'s table, or -1. */
  public int programmedIndex(NtbDirection direction, int original) {
    for (RequesterIdEntry e : requesterIds) {
      if (e.direction() == direction && e.original() == original) {
        return e.index();
      }
    }
    return -1;
  }

  /** The programmed entries of one direction, in programming order. */
  public List<RequesterIdEntry> requesterIds(NtbDirection direction) {
    return requesterIds.stream().filter(e -> e.direction() == direction).toList();
  }

  /** This configuration with {@code entry} added (an entry for the same requester replaced). */
  public NtbConfig withRequesterId(RequesterIdEntry entry) {
    List<RequesterIdEntry> next = new ArrayList<>(requesterIds.size() + 1);
    for (RequesterIdEntry e : requesterIds) {
      if (e.direction() != entry.direction() || e.original() != entry.original()) {
        next.add(e);
      }
    }
    next.add(entry);
    return new NtbConfig(virtualSideBdf, linkSideBus, linkBars, virtualBars, next);
  }

  /** This configuration with its windows replaced, as the fabric manager writes them. */
  public NtbConfig withBars(List<NtbBar> newLinkBars, List<NtbBar> newVirtualBars) {
    return new NtbConfig(virtualSideBdf, linkSideBus, newLinkBars, newVirtualBars, requesterIds);
  }

  public NtbConfig withLinkSideBus(int bus) {
    return new NtbConfig(virtualSideBdf, bus, linkBars, virtualBars, requesterIds);
  }

  @Override
  public String toString() {
    return "NtbConfig[virtual=" + Bdf.format(virtualSideBdf)
        + (linkSideBus >= 0 ? ", link-side bus=" + linkSideBus : "")
        + ", link=" + linkBars + ", virtual=" + virtualBars
        + (requesterIds.isEmpty() ? "" : ", requester IDs=" + requesterIds) + "]";
  }
}
