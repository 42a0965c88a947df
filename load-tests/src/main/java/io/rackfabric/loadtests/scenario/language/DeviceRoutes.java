package io.rackfabric.loadtests.scenario.language;

import io.rackfabric.cluster.topology.DeviceKind;
import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.Fields;
import io.rackfabric.cluster.topology.RouteExplainer;
import io.rackfabric.cluster.topology.RouteExplanation;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.address.Addresses;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The address checks a device workload's section shares ({@code gpu-copies}, {@code disk-reads}):
 * a driver on a root endpoint reaches the device's registers, and the device reaches the driver's
 * RAM at the host-side address of each area it writes or reads, every one followed through the
 * topology as {@code rack route} does ({@link RouteExplainer}). Each failure is reported on the
 * workload's key, naming both addresses and where the request went instead.
 */
final class DeviceRoutes {

  private final Fields w;
  private final Topology topology;
  private final RouteExplainer routes;
  private final String driver;
  private final String device;
  /** The device side's key in an address pair ({@code gpu}, {@code disk}). */
  private final String side;

  /** Checks for the workload {@code w}: {@code driver}'s software drives {@code device}, named {@code side} in pairs. */
  DeviceRoutes(Fields w, Topology topology, String driver, String device, String side) {
    this.w = w;
    this.topology = topology;
    this.routes = new RouteExplainer(topology);
    this.driver = driver;
    this.device = device;
    this.side = side;
  }

  /**
   * {@code KEY = { SIDE = ..., host = ... }}: the device's and the driver's address of one area,
   * zeros where a problem was reported.
   */
  static long[] pair(Fields w, String key, String side, String... alsoAllowed) {
    Fields p = w.object(key, true);
    if (p == null) {
      return new long[2];
    }
    List<String> allowed = new ArrayList<>(List.of(side, "host"));
    allowed.addAll(List.of(alsoAllowed));
    p.allowOnly(allowed.toArray(String[]::new));
    Long dev = p.address(side, true);
    Long host = p.address("host", true);
    return new long[] {dev == null ? 0 : dev, host == null ? 0 : host};
  }

  /**
   * The driver a root endpoint and the device an endpoint of {@code kind} with at least {@code
   * bars} BARs: the device's spec, or empty with the problems reported.
   */
  Optional<EndpointSpec> endpoints(DeviceKind kind, int bars, String plural) {
    Optional<EndpointSpec> d = topology.endpoint(driver);
    Optional<EndpointSpec> dev = topology.endpoint(device).filter(e -> e.device() == kind && e.bars().size() >= bars);
    if (d.isEmpty() || !d.get().root()) {
      w.error("driver", "driver=" + driver + " is not a root endpoint of " + topology.name()
          + " (roots: " + String.join(", ", topology.endpoints().stream().filter(EndpointSpec::root)
          .map(EndpointSpec::id).toList()) + ")");
    }
    if (dev.isEmpty()) {
      w.error(side, side + "=" + device + " is not an endpoint with device = " + kind.key() + " in "
          + topology.name() + " (" + plural + ": " + String.join(", ", topology.endpoints().stream()
          .filter(e -> e.device() == kind).map(EndpointSpec::id).toList()) + ")");
    }
    return d.isEmpty() || !d.get().root() ? Optional.empty() : dev;
  }

  /** {@code registers} from the driver must reach the device's BAR0 at its base, where {@code first} lives. */
  void registersAtBar0(long registers, AddressRange bar0, String first) {
    RouteExplanation regs = routes.explain(driver, registers, false);
    if (!regs.delivered() || !device.equals(regs.target()) || regs.outcome().address() != bar0.base()) {
      w.error("registers", "registers=" + Addresses.hex(registers) + " from " + driver + " is " + regs.ending()
          + "; it must reach " + device + "'s BAR0 at its base " + Addresses.hex(bar0.base()) + " (" + first
          + " at offset 0)");
    }
  }

  /**
   * Whether {@code deviceBase + offset} from the device reaches the driver's RAM at {@code
   * hostBase + offset}; reported on {@code key}, naming both, if not.
   */
  boolean towardHost(String key, long deviceBase, long hostBase, long offset, boolean read, String what) {
    RouteExplanation r = routes.explain(device, deviceBase + offset, read);
    if (r.delivered() && driver.equals(r.target()) && r.outcome().address() == hostBase + offset) {
      return true;
    }
    w.error(key, key + "." + side + "=" + Addresses.hex(deviceBase) + ": " + what + " (" + Addresses.hex(deviceBase
        + offset) + ", a " + (read ? "read" : "write") + " from " + device + ") is " + r.ending() + "; it must reach "
        + driver + " at " + Addresses.hex(hostBase + offset) + " (" + key + ".host=" + Addresses.hex(hostBase)
        + (offset == 0 ? "" : " + " + offset) + ")");
    return false;
  }

  /** {@code length} bytes from {@code deviceBase} reach the driver's RAM from {@code hostBase}: first and last byte. */
  boolean areaTowardHost(String key, long deviceBase, long hostBase, long length, boolean read, String what) {
    return towardHost(key, deviceBase, hostBase, 0, read, what + "'s first byte")
        && (length <= 1 || towardHost(key, deviceBase, hostBase, length - 1, read, what + "'s last byte"));
  }

  /**
   * Two areas of the driver's RAM must not overlap: reported on {@code key} ({@code a}'s), naming
   * both, if they do.
   */
  void apart(String key, String a, long aBase, long aLength, String b, long bBase, long bLength) {
    if (aBase + aLength > bBase && aBase < bBase + bLength) {
      w.error(key, a + "=" + Addresses.hex(aBase) + " (" + aLength + " bytes) overlaps " + b + "="
          + Addresses.hex(bBase) + " (" + bLength + " bytes) in " + driver + "'s RAM");
    }
  }
}
