package io.rackfabric.host.iommu;

import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.fabric.tlp.Bdf;

/**
 * What a control request to change an IOMMU came to. User errors (a page outside the host's memory,
 * an unaligned address, closing a page that is not open) are results, not exceptions, so that the
 * management host can answer the request with an error reply and the table stays as it was.
 *
 * <p>{@link IommuTable#open} returns an {@link OpenResult} ({@link Opened} or {@link Rejection}),
 * {@link IommuTable#close} a {@link CloseResult} ({@link Closed} or {@link Rejection}); the split
 * lets the compiler keep a close from being mistaken for an open.
 */
public sealed interface IommuResult {

  /** True when the table was changed as asked; false for a {@link Rejection}, which changed nothing. */
  boolean accepted();

  /** The outcome of {@link IommuTable#open}. */
  sealed interface OpenResult extends IommuResult {}

  /** The outcome of {@link IommuTable#close}. */
  sealed interface CloseResult extends IommuResult {}

  /**
   * {@code pageCount} pages from {@code pageAddress} are now open to {@code requester} with {@code
   * permission}. {@code newlyOpened} of them were not open to it before; {@code permissionChanged}
   * were open with another permission, which this one replaced; the rest already had it.
   */
  record Opened(
      int requester,
      long pageAddress,
      long pageCount,
      Permission permission,
      long newlyOpened,
      long permissionChanged)
      implements OpenResult {

    @Override
    public boolean accepted() {
      return true;
    }

    @Override
    public String toString() {
      return "opened " + pageCount + " page(s) at " + Addresses.hex(pageAddress) + " to "
          + Bdf.format(requester) + " " + permission.symbol() + " (" + newlyOpened + " new, "
          + permissionChanged + " changed)";
    }
  }

  /** {@code pageCount} pages from {@code pageAddress}, all of which were open, are now closed. */
  record Closed(int requester, long pageAddress, long pageCount) implements CloseResult {

    @Override
    public boolean accepted() {
      return true;
    }

    @Override
    public String toString() {
      return "closed " + pageCount + " page(s) at " + Addresses.hex(pageAddress) + " to "
          + Bdf.format(requester);
    }
  }

  /** The request was refused and the table is unchanged; {@code reason} names the offending value. */
  record Rejection(String reason) implements OpenResult, CloseResult {

    @Override
    public boolean accepted() {
      return false;
    }

    @Override
    public String toString() {
      return "rejected: " + reason;
    }
  }
}
