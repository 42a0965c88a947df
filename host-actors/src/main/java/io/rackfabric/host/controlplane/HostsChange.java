package io.rackfabric.host.controlplane;

import io.rackfabric.host.controlplane.ControlPlaneClient.UseHosts;

/**
 * Which lists of management hosts a control-plane driver ({@link ControlPlaneClient}) takes: a
 * list names at least one host and, when the hosts take requests on guest channels, one guest
 * address per host; a later list (a host started again, at a new address) names the same number
 * of hosts, on guest channels exactly when the first did.
 */
final class HostsChange {

  private HostsChange() {}

  /** Why {@code next} is no list of hosts at all, or null when it is one. */
  static String malformed(UseHosts next) {
    if (next.hosts().isEmpty()) {
      return "UseHosts names no management host";
    }
    if (!next.guests().isEmpty() && next.guests().size() != next.hosts().size()) {
      return "UseHosts names " + next.hosts().size() + " hosts and " + next.guests().size() + " guest addresses";
    }
    return null;
  }

  /** Why {@code next} cannot replace {@code current} (other hosts), or null when it can. */
  static String mismatch(UseHosts current, UseHosts next) {
    if (next.hosts().size() == current.hosts().size() && next.guests().isEmpty() == current.guests().isEmpty()) {
      return null;
    }
    return "has " + current.hosts().size() + " hosts" + (current.guests().isEmpty() ? "" : " on guest channels")
        + "; a list of " + next.hosts().size() + (next.guests().isEmpty() ? "" : " on guest channels")
        + " is ignored";
  }
}
