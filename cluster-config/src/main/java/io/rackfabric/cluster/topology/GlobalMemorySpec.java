package io.rackfabric.cluster.topology;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.host.failover.LadonAddresses;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import java.util.List;

/**
 * A topology's {@code global-memory} section: the layout of Ladon's global memory space, which
 * endpoints are its compute hosts, CH1 first, and which root is the management host whose
 * software runs the data-plane fail-over.
 *
 * @param computeHosts endpoint ids; the i-th (1-based) is compute host i of the layout
 * @param managementHost the MH's root endpoint id, or null: then no host software is started
 * @param controlPage the local address of Ladon's control page in every host's memory
 */
public record GlobalMemorySpec(GlobalMemoryLayout layout, List<String> computeHosts, String managementHost,
    long controlPage) {

  /** Where the control page sits unless the file says otherwise. */
  public static final long DEFAULT_CONTROL_PAGE = 0x10000;

  /** A layout without host software. */
  public GlobalMemorySpec(GlobalMemoryLayout layout, List<String> computeHosts) {
    this(layout, computeHosts, null, DEFAULT_CONTROL_PAGE);
  }

  /** The addresses of the fail-over protocol's words in this layout. */
  public LadonAddresses ladonAddresses() {
    return new LadonAddresses(layout, controlPage);
  }

  public GlobalMemorySpec {
    computeHosts = List.copyOf(computeHosts);
    if (computeHosts.size() != layout.computeHosts()) {
      throw new IllegalArgumentException(computeHosts.size() + " compute host ids " + computeHosts
          + " for a layout of " + layout.computeHosts());
    }
  }

  /**
   * The pages of endpoint {@code id}'s memory that hold the fail-over protocol's words: the MH's
   * control page and its copy in PMS2, a CH's control page; none for another endpoint or without
   * a management host, when no host software runs.
   */
  public List<AddressRange> controlPagesOf(String id) {
    if (managementHost == null) {
      return List.of();
    }
    AddressRange page = AddressRange.ofSize(controlPage, LadonAddresses.PAGE);
    if (id.equals(managementHost)) {
      return List.of(page, ladonAddresses().mhPms2Page());
    }
    return computeHosts.contains(id) ? List.of(page) : List.of();
  }

  /** The 1-based compute host number of endpoint {@code id}, or 0 when it is not one. */
  public int hostNumber(String id) {
    return computeHosts.indexOf(id) + 1;
  }
}
