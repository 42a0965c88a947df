package io.rackfabric.cluster.topology;

import io.rackfabric.host.memory.GlobalMemoryLayout;
import java.util.List;

/**
 * A topology's {@code global-memory} section: the layout of Ladon's global memory space and which
 * endpoints are its compute hosts, CH1 first.
 *
 * @param computeHosts endpoint ids; the i-th (1-based) is compute host i of the layout
 */
public record GlobalMemorySpec(GlobalMemoryLayout layout, List<String> computeHosts) {

  public GlobalMemorySpec {
    computeHosts = List.copyOf(computeHosts);
    if (computeHosts.size() != layout.computeHosts()) {
      throw new IllegalArgumentException(computeHosts.size() + " compute host ids " + computeHosts
          + " for a layout of " + layout.computeHosts());
    }
  }

  /** The 1-based compute host number of endpoint {@code id}, or 0 when it is not one. */
  public int hostNumber(String id) {
    return computeHosts.indexOf(id) + 1;
  }
}
