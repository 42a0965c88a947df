package io.rackfabric.cluster.topology;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.tlp.Bdf;
import java.util.List;

/**
 * A memory endpoint: a device, or with {@code root} the root complex of its PCIe domain, whose
 * "BARs" are then the host's system memory. Requests it originates carry {@code bdf} as requester
 * ID.
 *
 * @param bdf the endpoint's bus/device/function in its domain, packed as {@link Bdf} does
 * @param relay a root that sends peer-to-peer requests from below back down its link
 *     (fabric-actors {@code RootRelay}); {@link Topology#relayWindows} says where they may go
 * @param device what runs behind its BARs: memory, or a device its node spawns next to it
 */
public record EndpointSpec(String id, String node, int bdf, boolean root, List<AddressRange> bars, boolean relay,
    DeviceKind device)
    implements Component {

  public EndpointSpec {
    bars = List.copyOf(bars);
    if (device == null) {
      device = DeviceKind.MEMORY;
    }
  }

  /** An endpoint whose BARs are plain memory and that relays nothing. */
  public EndpointSpec(String id, String node, int bdf, boolean root, List<AddressRange> bars) {
    this(id, node, bdf, root, bars, false, DeviceKind.MEMORY);
  }

  /** Plain memory, relaying when {@code relay}. */
  public EndpointSpec(String id, String node, int bdf, boolean root, List<AddressRange> bars, boolean relay) {
    this(id, node, bdf, root, bars, relay, DeviceKind.MEMORY);
  }

  /** Behind its BARs {@code device}; relaying nothing. */
  public EndpointSpec(String id, String node, int bdf, boolean root, List<AddressRange> bars, DeviceKind device) {
    this(id, node, bdf, root, bars, false, device);
  }

  /** Index of the BAR that contains {@code address}, or -1. */
  public int barIndex(long address) {
    for (int i = 0; i < bars.size(); i++) {
      if (bars.get(i).contains(address)) {
        return i;
      }
    }
    return -1;
  }
}
