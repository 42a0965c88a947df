package io.rackfabric.fabric.management;

import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.routing.PortConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Device descriptions from what the fabric is built of: a switch chip's port configurations, an
 * endpoint, and the links on their ports. A chip has as many ports as its highest port number
 * says (numbers the chip does not use are {@link PortKind#UNUSED}); a port with a link is trained
 * to {@code linkedState}, which depends on whether a fabric manager activates the ports.
 */
public final class DeviceDescriptions {

  private DeviceDescriptions() {}

  /**
   * @param links the link on each port number that has one
   * @param linkedState the state a port with a link is in, both ends alike
   */
  public static DeviceDescription switchChip(String id, long serial, int maxPayload, List<PortConfig> ports,
      Map<Integer, LinkParameters> links, DataLinkState linkedState) {
    Map<Integer, PortConfig> byNumber = new HashMap<>();
    int count = 0;
    for (PortConfig p : ports) {
      if (byNumber.put(p.number(), p) != null) {
        throw new IllegalArgumentException(id + ": port number=" + p.number() + " appears twice");
      }
      count = Math.max(count, p.number() + 1);
    }
    for (int n : links.keySet()) {
      if (!byNumber.containsKey(n)) {
        throw new IllegalArgumentException(id + ": a link on port number=" + n + ", which the chip does not have");
      }
    }
    List<PortDescription> described = new ArrayList<>();
    for (int n = 0; n < count; n++) {
      PortConfig p = byNumber.get(n);
      LinkParameters link = links.get(n);
      described.add(p == null ? PortDescription.unused(n) : new PortDescription(n, kind(p), p.virtualSwitch(), link,
          state(link, linkedState), state(link, linkedState)));
    }
    return new DeviceDescription(id, DeviceType.SWITCH, serial, maxPayload, described, -1);
  }

  /**
   * @param link the endpoint's link, or null when it has none
   * @param candidatePriority -1 when the endpoint runs no fabric-manager driver
   */
  public static DeviceDescription endpoint(String id, long serial, int maxPayload, LinkParameters link,
      DataLinkState linkedState, int candidatePriority) {
    PortDescription port = new PortDescription(0, PortKind.ENDPOINT, 0, link, state(link, linkedState),
        state(link, linkedState));
    return new DeviceDescription(id, DeviceType.ENDPOINT, serial, maxPayload, List.of(port), candidatePriority);
  }

  private static PortKind kind(PortConfig p) {
    return switch (p.role()) {
      case UPSTREAM -> PortKind.UPSTREAM;
      case DOWNSTREAM -> PortKind.DOWNSTREAM;
      case NTB -> PortKind.NTB;
    };
  }

  private static DataLinkState state(LinkParameters link, DataLinkState linkedState) {
    return link == null ? DataLinkState.DL_INACTIVE : linkedState;
  }
}
