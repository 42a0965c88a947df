package io.rackfabric.host.iommu;

/**
 * The outcome of checking one access against a host's IOMMU.
 *
 * <p>An enum, not a record with a reason: the check runs once per TLP and must not allocate. What
 * a DENY turns into is the host's business, as PCIe has it: a non-posted read is answered with a
 * completion carrying Unsupported Request or Completer Abort, a posted write is dropped; both are
 * counted per requester ({@link IommuTable#checkAndCount}).
 */
public enum IommuDecision {
  /** Every page the access touches is open to the requester with a permission that allows it. */
  ALLOW,
  /** At least one page the access touches is not open to the requester, or not for this kind. */
  DENY
}
