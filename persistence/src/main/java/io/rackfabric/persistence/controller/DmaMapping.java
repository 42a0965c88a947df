package io.rackfabric.persistence.controller;

/**
 * One DMA buffer of a borrower mapped into its loan's DMA window: the device reaches it at
 * {@code windowBase + offset} (the address its driver is handed), the borrower's IOMMU takes
 * {@code windowTarget + offset} to {@code bufferAddress}.
 *
 * @param bufferAddress the buffer's address on the borrower (guest-physical for a VM borrower)
 */
public record DmaMapping(String device, long offset, long bufferAddress, long size) {}
