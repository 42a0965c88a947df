package io.rackfabric.host.iommu;

import io.rackfabric.fabric.endpoint.InboundAccessCheck;

/**
 * A host's IOMMU as its root endpoint's inbound access check: every memory request arriving at
 * the host is checked against the {@link IommuTable} by the requester ID it arrives with (after NTB
 * proxying). The endpoint answers a denied read with Completer Abort, drops a denied write, and
 * counts both per requester.
 *
 * <p>Owned by one endpoint actor, like the table inside it; changed only through {@link
 * OpenIommuPages}, {@link CloseIommuPages} and {@link InstallIommu} sent in a {@code
 * MemoryEndpoint.ChangeAccessCheck}.
 */
public final class IommuAccessCheck implements InboundAccessCheck {

  private final IommuTable table;

  /** Takes ownership of {@code table}: the caller must not keep or share it. */
  public IommuAccessCheck(IommuTable table) {
    if (table == null) {
      throw new IllegalArgumentException("table is null");
    }
    this.table = table;
  }

  @Override
  public Decision decide(int requester, long address, int length, boolean write) {
    // A TLP carries at least one byte and a 16-bit ID, so the table's argument checks never fire.
    return table.check(requester, address, Math.max(1, length), write) == IommuDecision.ALLOW
        ? Decision.ALLOW
        : Decision.DENY;
  }

  /** The table, for the changes of this package (applied on the owning endpoint's thread). */
  IommuTable table() {
    return table;
  }

  @Override
  public String toString() {
    return table.toString();
  }
}
