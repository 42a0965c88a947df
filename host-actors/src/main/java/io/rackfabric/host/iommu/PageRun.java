package io.rackfabric.host.iommu;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.tlp.Bdf;

/**
 * A maximal run of consecutive 4 KiB pages open to one requester with one permission, as {@link
 * IommuTable} lists its entries. Runs of the same requester never overlap, and two adjacent runs
 * always differ in permission (they would otherwise be one run).
 *
 * @param requester the requester ID, packed as {@link Bdf} packs it
 * @param firstPage the page number of the first page (its address divided by 4 KiB)
 * @param pageCount the number of pages, at least 1
 */
public record PageRun(int requester, long firstPage, long pageCount, Permission permission) {

  public long firstAddress() {
    return firstPage << IommuTable.PAGE_SHIFT;
  }

  /** The address of the last byte of the last page (inclusive, like {@link AddressRange}). */
  public long lastAddress() {
    return ((firstPage + pageCount) << IommuTable.PAGE_SHIFT) - 1;
  }

  public AddressRange range() {
    return new AddressRange(firstAddress(), lastAddress());
  }

  @Override
  public String toString() {
    return Bdf.format(requester) + " " + range() + " " + permission.symbol();
  }
}
