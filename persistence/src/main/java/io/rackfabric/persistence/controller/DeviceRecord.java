package io.rackfabric.persistence.controller;

import java.util.List;

/**
 * A function found by enumeration and what was programmed into it.
 *
 * @param location device.function path from the root, stable while bus numbers change
 * @param totalVfs for a NIC, how many VFs its SR-IOV capability offers; 0 otherwise
 */
public record DeviceRecord(
    String device, DeviceKind kind, int bdf, String location, List<BarRecord> bars, int totalVfs) {

  public DeviceRecord {
    bars = bars == null ? List.of() : List.copyOf(bars);
  }
}
