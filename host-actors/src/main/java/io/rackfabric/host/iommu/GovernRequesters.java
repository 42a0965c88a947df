package io.rackfabric.host.iommu;

import io.rackfabric.fabric.endpoint.AccessCheckChange;
import io.rackfabric.fabric.endpoint.InboundAccessCheck;
import java.util.Arrays;

/**
 * Has the host's IOMMU decide for {@code requesters} too: from then on their requests reach only
 * the pages opened to them (none at first). A borrower's driver sends it for a lent device's IDs
 * when its loan begins (Device Lending section 4: the borrower's IOMMU maps the device's DMA
 * buffers, and nothing else of the borrower's memory). Requesters already governed stay so; an
 * IOMMU that governs every requester is unchanged. Refused, changing nothing, when the endpoint
 * has no IOMMU or an ID is not a 16-bit requester ID.
 */
public record GovernRequesters(int[] requesters) implements AccessCheckChange {

  public GovernRequesters {
    requesters = requesters == null ? null : requesters.clone();
  }

  @Override
  public Result applyTo(String endpoint, InboundAccessCheck current) {
    if (!(current instanceof IommuAccessCheck iommu)) {
      return Result.refused(InstallIommu.noIommu(endpoint, current));
    }
    if (requesters == null || requesters.length == 0) {
      return Result.refused(endpoint + ": requesters=" + Arrays.toString(requesters) + " names no requester ID");
    }
    for (int id : requesters) {
      if (id < 0 || id > IommuTable.MAX_REQUESTER) {
        return Result.refused(endpoint + ": requester=" + id + " is not a 16-bit requester ID");
      }
    }
    return Result.applied(iommu.governing(requesters),
        endpoint + ": IOMMU governs " + Arrays.toString(requesters) + " too");
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof GovernRequesters g && Arrays.equals(requesters, g.requesters);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(requesters);
  }

  @Override
  public String toString() {
    return "GovernRequesters" + Arrays.toString(requesters);
  }
}
