package io.rackfabric.host.iommu;

import io.rackfabric.fabric.endpoint.InboundAccessCheck;
import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * A host's IOMMU as its root endpoint's inbound access check: every memory request arriving at
 * the host is checked against the {@link IommuTable} by the requester ID it arrives with (after NTB
 * proxying). The endpoint answers a denied read with Unsupported Request, drops a denied write, and
 * counts both per requester.
 *
 * <p>It may govern only some requester IDs (those under which the rack's other hosts arrive, the
 * ones the management host places): any other requester, a device of the host's own domain such as
 * its NIC's VF, is served as without an IOMMU.
 *
 * <p>Owned by one endpoint actor, like the table inside it; changed only through {@link
 * OpenIommuPages}, {@link CloseIommuPages}, {@link GovernRequesters} and {@link InstallIommu} sent in a {@code
 * MemoryEndpoint.ChangeAccessCheck}.
 */
public final class IommuAccessCheck implements InboundAccessCheck {

  private final IommuTable table;
  /** Sorted requester IDs the table decides for; null: every requester. */
  private final int[] governed;

  /** Takes ownership of {@code table}: the caller must not keep or share it. Governs every requester. */
  public IommuAccessCheck(IommuTable table) {
    this(table, null);
  }

  /**
   * @param governed the requester IDs the table decides for; any other is served. Null: every one
   */
  public IommuAccessCheck(IommuTable table, int[] governed) {
    if (table == null) {
      throw new IllegalArgumentException("table is null");
    }
    this.table = table;
    if (governed == null) {
      this.governed = null;
    } else {
      this.governed = governed.clone();
      Arrays.sort(this.governed);
    }
  }

  /** A check over a copy of the table, governing the same requesters. */
  IommuAccessCheck copy() {
    return new IommuAccessCheck(table.copy(), governed);
  }

  /**
   * A check over the same table governing {@code more} requester IDs besides its own; this one
   * when it governs every requester already.
   */
  IommuAccessCheck governing(int[] more) {
    if (governed == null) {
      return this;
    }
    int[] all = IntStream.concat(Arrays.stream(governed), Arrays.stream(more)).distinct().toArray();
    return all.length == governed.length ? this : new IommuAccessCheck(table, all);
  }

  @Override
  public Decision decide(int requester, long address, int length, boolean write) {
    if (governed != null && Arrays.binarySearch(governed, requester) < 0) {
      return Decision.ALLOW;
    }
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
    return governed == null ? table.toString() : table + " governing " + governed.length + " requester ID(s)";
  }
}
