package io.rackfabric.host.iommu;

import io.rackfabric.fabric.endpoint.AccessCheckChange;
import io.rackfabric.fabric.endpoint.InboundAccessCheck;

/**
 * Closes {@code pageCount} 4 KiB pages from {@code pageAddress} to {@code requester}, whatever
 * their permission. Refused, changing nothing, when the endpoint has no IOMMU or any of the pages
 * is not open to the requester ({@link IommuTable#close}).
 */
public record CloseIommuPages(int requester, long pageAddress, long pageCount) implements AccessCheckChange {

  @Override
  public Result applyTo(String endpoint, InboundAccessCheck current) {
    if (!(current instanceof IommuAccessCheck iommu)) {
      return Result.refused(InstallIommu.noIommu(endpoint, current));
    }
    IommuResult.CloseResult r = iommu.table().close(requester, pageAddress, pageCount);
    return r instanceof IommuResult.Rejection no
        ? Result.refused(no.reason())
        : Result.applied(iommu, endpoint + ": " + r);
  }
}
