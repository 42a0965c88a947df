package io.rackfabric.host.iommu;

import io.rackfabric.fabric.endpoint.AccessCheckChange;
import io.rackfabric.fabric.endpoint.InboundAccessCheck;

/**
 * Opens {@code pageCount} 4 KiB pages from {@code pageAddress} of the target host's memory to
 * {@code requester} (the ID its requests arrive with at that host) with {@code permission}; pages
 * already open to it get the new permission. Sent to the host's root endpoint in a {@code
 * MemoryEndpoint.ChangeAccessCheck}; refused, changing nothing, when the endpoint has no IOMMU or
 * {@link IommuTable#open} rejects the values.
 */
public record OpenIommuPages(int requester, long pageAddress, long pageCount, Permission permission)
    implements AccessCheckChange {

  @Override
  public Result applyTo(String endpoint, InboundAccessCheck current) {
    if (!(current instanceof IommuAccessCheck iommu)) {
      return Result.refused(InstallIommu.noIommu(endpoint, current));
    }
    IommuResult.OpenResult r = iommu.table().open(requester, pageAddress, pageCount, permission);
    return r instanceof IommuResult.Rejection no
        ? Result.refused(no.reason())
        : Result.applied(iommu, endpoint + ": " + r);
  }
}
