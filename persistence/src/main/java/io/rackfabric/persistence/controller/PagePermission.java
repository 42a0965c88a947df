package io.rackfabric.persistence.controller;

/**
 * The access bits of one IOMMU entry. The controller's own copy of host-actors' Permission
 * (persistence sits below host-actors); "none" is not a value: closing a page removes the entry.
 */
public enum PagePermission {
  READ,
  WRITE,
  READ_WRITE
}
