package io.rackfabric.persistence.controller;

/**
 * A host the controller knows: its requester ID as seen through the fabric and its local memory
 * [memoryBase, memoryBase + memorySize), in which its IOMMU entries must lie.
 */
public record HostRecord(String host, int requester, long memoryBase, long memorySize) {

  public boolean contains(long pageAddress) {
    return pageAddress >= memoryBase && pageAddress - memoryBase < memorySize;
  }
}
