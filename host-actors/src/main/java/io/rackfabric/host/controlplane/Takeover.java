package io.rackfabric.host.controlplane;

import io.rackfabric.fabric.wire.WireMessage;

/** How the backup management host takes over from a failed master (Ladon section 5.2). */
public enum Takeover implements WireMessage {
  /**
   * Ladon's mechanism: fence the master by moving every port but its own to VS2, reboot from the
   * running image (template snapshot plus change log) and resume; the data plane never stops.
   */
  LADON,
  /**
   * The baseline without it: the backup restarts the whole system, every compute host resets, and
   * the data plane is down for the modeled restart.
   */
  RESTART
}
