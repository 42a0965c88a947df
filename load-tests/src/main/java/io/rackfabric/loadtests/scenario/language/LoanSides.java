package io.rackfabric.loadtests.scenario.language;

import io.rackfabric.cluster.lending.LoanPlanException;
import io.rackfabric.cluster.lending.LoanPlanner;
import io.rackfabric.cluster.topology.Fields;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.host.device.LoanInterruptMap;

/**
 * A borrower's device workload that gives an area by its own RAM address alone ({@code key = {
 * host }}): the device reaches it through the loan's DMA window, the one {@code rack lend} finds for
 * the pair and a borrow carries (Device Lending section 4: the borrower maps each DMA buffer into
 * that window "and the driver is handed the far-side address"). An MSI word is mapped the same way,
 * as the loan's reverse MSI mapping of a vector ({@link LoanInterruptMap}). A workload that names
 * the device's side too ({@code key = { gpu | disk, host }}) is taken as written.
 */
final class LoanSides {

  private final Fields w;
  private final Topology topology;
  private final String device;
  private final String driver;
  /** The device's side's key in the area's object: {@code gpu} or {@code disk}. */
  private final String side;

  LoanSides(Fields w, Topology topology, String device, String driver, String side) {
    this.w = w;
    this.topology = topology;
    this.device = device;
    this.driver = driver;
    this.side = side;
  }

  /** {device side, host side} of {@code key}: through the loan's window when only host is given. */
  long[] area(String key, String... alsoAllowed) {
    if (!hostOnly(key)) {
      return DeviceRoutes.pair(w, key, side, alsoAllowed);
    }
    Long host = host(key);
    LoanPlanner.DmaWindow window = host == null ? null : window(key, host);
    if (window == null) {
      return new long[2];
    }
    if (host < window.borrowerSide() || host >= window.borrowerSide() + window.size()) {
      refuse(key, host, "the loan's DMA window onto " + driver + " [" + Addresses.hex(window.borrowerSide()) + ", "
          + Addresses.hex(window.borrowerSide() + window.size()) + ") does not reach it");
      return new long[2];
    }
    return new long[] {window.deviceSide() + (host - window.borrowerSide()), host};
  }

  /** {device side, host side} of {@code msi}: the loan's reverse MSI mapping of {@code vector} when only host is given. */
  long[] msi(int vector, String... alsoAllowed) {
    if (!hostOnly("msi")) {
      return DeviceRoutes.pair(w, "msi", side, alsoAllowed);
    }
    Long host = host("msi");
    LoanPlanner.DmaWindow window = host == null ? null : window("msi", host);
    if (window == null) {
      return new long[2];
    }
    try {
      return new long[] {new LoanInterruptMap(window.deviceSide(), window.size(), window.borrowerSide())
          .map(vector, host), host};
    } catch (IllegalArgumentException e) {
      refuse("msi", host, e.getMessage());
      return new long[2];
    }
  }

  /** {@code key = { host }} alone: no device side and nothing else in it. */
  private boolean hostOnly(String key) {
    com.typesafe.config.ConfigValue v = w.raw(key);
    return v instanceof com.typesafe.config.ConfigObject o && o.size() == 1 && o.containsKey("host");
  }

  private Long host(String key) {
    return w.object(key, true).address("host", true);
  }

  private LoanPlanner.DmaWindow window(String key, long host) {
    if (topology == null || device == null || driver == null) {
      return null;
    }
    try {
      return new LoanPlanner(topology).plan(device, driver).window();
    } catch (LoanPlanException e) {
      refuse(key, host, e.getMessage());
      return null;
    }
  }

  private void refuse(String key, long host, String why) {
    w.error(key, key + "." + side + " left out, so it is " + key + ".host=" + Addresses.hex(host)
        + " through the loan's DMA window, but " + why + " (give " + key + "." + side + ")");
  }
}
