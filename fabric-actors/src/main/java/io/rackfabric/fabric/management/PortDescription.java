package io.rackfabric.fabric.management;

import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.link.LinkParameters;

/**
 * One port of a device as its capabilities start out: what it is and the link it has.
 *
 * @param number the physical port number, 0 to the device's port count - 1
 * @param virtualSwitch the switch partition it belongs to (1 or 2); 0 for an endpoint's port or an
 *     unused one
 * @param link the link on it, or null when nothing is wired to it; its generation and lanes are
 *     the port's speed and width (the topology gives no chip maxima, so they are the maxima too)
 * @param state the port's state (AS-FM Fig. 3); {@code DL_INACTIVE} without a link
 * @param peerState the state of the port at the link's other end, as the data link layer sees it
 */
public record PortDescription(
    int number, PortKind kind, int virtualSwitch, LinkParameters link, DataLinkState state, DataLinkState peerState) {

  public PortDescription {
    if (number < 0 || number > BaselineCapability.MAX_PORTS - 1) {
      throw new IllegalArgumentException(
          "port number=" + number + " not in [0," + (BaselineCapability.MAX_PORTS - 1) + "]");
    }
    if (virtualSwitch < 0 || virtualSwitch > 15) {
      throw new IllegalArgumentException("port " + number + ": virtualSwitch=" + virtualSwitch + " not in [0,15]");
    }
    if (link == null && (state != DataLinkState.DL_INACTIVE || peerState != DataLinkState.DL_INACTIVE)) {
      throw new IllegalArgumentException(
          "port " + number + ": state=" + state + ", peerState=" + peerState + " without a link");
    }
  }

  /** A port number the device has but nothing uses. */
  public static PortDescription unused(int number) {
    return new PortDescription(number, PortKind.UNUSED, 0, null, DataLinkState.DL_INACTIVE, DataLinkState.DL_INACTIVE);
  }

  /** Whether management packets may leave through it (AS-FM section 2.2: DL_Protected or DL_Active). */
  public boolean carriesManagement() {
    return link != null && carriesManagement(state);
  }

  static boolean carriesManagement(DataLinkState state) {
    return state == DataLinkState.DL_PROTECTED || state == DataLinkState.DL_ACTIVE;
  }
}
