package io.rackfabric.persistence.controller;

/**
 * A device lent to a borrower, and its DMA window: the lender-side bus addresses
 * [{@code windowBase}, {@code windowBase + windowSize}) through which the device reaches the
 * borrower, arriving there as I/O addresses from {@code windowTarget} on, which the borrower's
 * IOMMU maps to the buffers its driver creates ({@link DmaMapping}).
 *
 * @param vm the virtual machine on the borrower that uses the device, null for the host itself
 */
public record LoanRecord(String device, String lender, String borrower, String vm, long windowBase,
    long windowSize, long windowTarget, long lentAt) {}
