package io.rackfabric.host.memory;

import io.rackfabric.fabric.ntb.NtbBar;
import io.rackfabric.fabric.ntb.NtbConfig;
import java.util.List;

/**
 * What one NTB port of a compute host must hold for the global memory layout: its link-side BARs
 * (in the MH's domain, leading into the CH) and virtual-side BARs (in the CH's domain, leading
 * into the MH's space), as {@link NtbConfig} takes them.
 *
 * @param host the compute host, 1-based
 */
public record NtbProgramming(int host, Plane plane, List<NtbBar> linkBars, List<NtbBar> virtualBars) {

  public NtbProgramming {
    linkBars = List.copyOf(linkBars);
    virtualBars = List.copyOf(virtualBars);
  }

  /** The port's configuration with these BARs; the BDF is where its virtual side sits. */
  public NtbConfig toConfig(int virtualSideBdf) {
    return new NtbConfig(virtualSideBdf, linkBars, virtualBars);
  }
}
