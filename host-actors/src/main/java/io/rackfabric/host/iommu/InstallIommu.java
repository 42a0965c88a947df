package io.rackfabric.host.iommu;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.AccessCheckChange;
import io.rackfabric.fabric.endpoint.InboundAccessCheck;
import java.util.List;

/**
 * Gives an endpoint a fresh IOMMU over {@code memory} with no page open, replacing whatever check
 * it had (an endpoint created without one serves everything): from then on every inbound request
 * is denied until {@link OpenIommuPages} opens its pages. For endpoints spawned by code that does
 * not know about IOMMUs; one created with an {@link IommuAccessCheck} needs no install.
 *
 * @param host the host's name, for messages
 * @param memory the host's memory: only pages inside it can be opened
 */
public record InstallIommu(String host, List<AddressRange> memory) implements AccessCheckChange {

  public InstallIommu {
    memory = memory == null ? null : List.copyOf(memory);
  }

  @Override
  public Result applyTo(String endpoint, InboundAccessCheck current) {
    IommuTable table;
    try {
      table = new IommuTable(host, memory);
    } catch (IllegalArgumentException | NullPointerException e) {
      return Result.refused(endpoint + ": no IOMMU installed: " + e.getMessage());
    }
    return Result.applied(new IommuAccessCheck(table),
        endpoint + ": IOMMU installed over " + table.memory() + ", nothing open (was: " + current + ")");
  }

  static String noIommu(String endpoint, InboundAccessCheck current) {
    return "endpoint " + endpoint + " has no IOMMU (its inbound check is " + current
        + "); install one with InstallIommu first";
  }
}
