package io.rackfabric.fabric.management;

import io.rackfabric.fabric.tlp.MessagePayload;

/**
 * A fabric managers' packet of ours beside PI-4 and PI-5 (election claims, heartbeats, the
 * topology database sent to the secondary): carried as a {@link io.rackfabric.fabric.tlp.FabricMessage}
 * on traffic class 0, as AS-FM's management packets default to.
 */
interface FmPayload extends MessagePayload {

  @Override
  default int trafficClass() {
    return 0;
  }
}
