package io.rackfabric.persistence.controller;

import java.util.List;

/**
 * A device its lender offers to the rack (Device Lending, section 4).
 *
 * @param bars the device's BARs in the lender's address space, mapped through the NTB for a borrower
 */
public record OfferRecord(String device, String lender, LendableKind kind, List<BarRecord> bars) {

  public OfferRecord {
    bars = bars == null ? List.of() : List.copyOf(bars);
  }
}
