package io.rackfabric.host.iommu;

import io.rackfabric.fabric.tlp.Bdf;

/** Counts of denied accesses of one requester at one host; see {@link IommuTable#denials()}. */
public record DenialCount(int requester, long reads, long writes) {
  @Override
  public String toString() {
    return Bdf.format(requester) + " reads=" + reads + " writes=" + writes;
  }
}
