package io.rackfabric.fabric.ntb;

import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.wire.WireMessage;
import java.util.List;

/**
 * An NTB port's two endpoints. The link side sits in the switch's (master) domain, the virtual
 * side in the slave domain across the NTB's own link (seeds/000 section 3.3). Each side's BARs
 * translate toward the other side only: translation is one-way per BAR.
 *
 * @param virtualSideBdf the virtual-side endpoint's ID in the slave domain; its bus and device
 *     also name the proxy requester IDs used for requests relayed into that domain
 */
public record NtbConfig(int virtualSideBdf, List<NtbBar> linkBars, List<NtbBar> virtualBars)
    implements WireMessage {

  public NtbConfig {
    linkBars = List.copyOf(linkBars);
    virtualBars = List.copyOf(virtualBars);
    checkDisjoint("link", linkBars);
    checkDisjoint("virtual", virtualBars);
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

  public boolean linkSideClaims(long address) {
    return find(linkBars, address) != null;
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

  @Override
  public String toString() {
    return "NtbConfig[virtual=" + Bdf.format(virtualSideBdf) + ", link=" + linkBars
        + ", virtual=" + virtualBars + "]";
  }
}
