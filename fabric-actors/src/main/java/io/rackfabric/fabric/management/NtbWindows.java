package io.rackfabric.fabric.management;

import io.rackfabric.fabric.ntb.NtbBar;
import java.util.List;

/**
 * The windows a fabric manager is to write into one NTB port ({@link NtbWindowCapability}): the
 * port {@code port} of the switch chip with serial number {@code chipSerial}, named {@code name}
 * in messages ("chip.port"). Where they come from is the rack's business (in a Ladon rack, its
 * global memory layout).
 */
public record NtbWindows(long chipSerial, int port, String name, List<NtbBar> linkBars, List<NtbBar> virtualBars) {

  /** Windows a side of an NTB port's capability holds. */
  public static final int MAX_PER_SIDE = NtbWindowCapability.SLOTS_PER_SIDE;

  public NtbWindows {
    linkBars = List.copyOf(linkBars);
    virtualBars = List.copyOf(virtualBars);
    if (linkBars.size() > NtbWindowCapability.SLOTS_PER_SIDE || virtualBars.size() > NtbWindowCapability.SLOTS_PER_SIDE) {
      throw new IllegalArgumentException(name + ": link-bars=" + linkBars.size() + ", virtual-bars="
          + virtualBars.size() + ", each at most " + NtbWindowCapability.SLOTS_PER_SIDE);
    }
  }

  /**
   * What a fabric manager writes: every port's windows, and where they differ from what the rack's
   * file programmed the ports with (read when the plan was made; empty: the same).
   */
  public record Plan(List<NtbWindows> ports, List<String> differences) {

    public static final Plan NONE = new Plan(List.of(), List.of());

    public Plan {
      ports = List.copyOf(ports);
      differences = List.copyOf(differences);
    }

    public boolean isEmpty() {
      return ports.isEmpty();
    }
  }
}
