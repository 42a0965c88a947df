package io.rackfabric.persistence.controller;

/** What a lender offers (Device Lending): the device's kind, as the borrower's driver expects it. */
public enum LendableKind {
  /** A GPU-like device: registers, device memory and a DMA copy engine. */
  GPU,
  /** An NVMe-like disk: submission and completion queues in its borrower's memory. */
  DISK,
  /** A NIC function. */
  NIC
}
