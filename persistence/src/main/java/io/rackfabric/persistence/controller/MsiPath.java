package io.rackfabric.persistence.controller;

/**
 * The MSI/MSI-X path of a loan (Device Lending section 4: the lender sets up the DMA window into
 * the borrower and the MSI path back): the device's MSI is a posted write to {@code msiAddress} in
 * {@code borrower}'s RAM (its interrupt word, reached through the loan's DMA window), so the
 * borrower's IOMMU opens that word's page to the device for as long as the loan lasts.
 *
 * @param msiAddress the borrower's address of the device's interrupt word (dword aligned)
 */
public record MsiPath(String device, String borrower, long msiAddress) {}
