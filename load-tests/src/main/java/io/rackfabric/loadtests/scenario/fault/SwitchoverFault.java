package io.rackfabric.loadtests.scenario.fault;

import io.rackfabric.host.controlplane.ControlPlaneHost;

/**
 * {@code switchover}: a managed switchover of the control plane (Multi-peer "Redundancy"), asked of
 * the master TARGET: it quiesces, lets every outstanding operation be acknowledged, hands over to
 * its backup, forwards what queued meanwhile, and becomes the new master's backup. No link goes
 * down. At a model time (a run under the kernel) the rack is held there while the hosts hand over:
 * the new master goes on from the model time the hand-over reached, its heartbeats from there, the
 * same on every run. At a wall time it happens wherever the hosts' clocks are then. TARGET may be
 * either host of the pair, whichever is master at that time: a second switchover hands the control
 * plane back. A host that is not the master, a master without a caught-up backup, refuses with the
 * reason (noted in the run). Each switchover made gives the {@code switchover} figures.
 */
public final class SwitchoverFault extends RoleChangeFault {

  public SwitchoverFault() {
    super("switchover", "managed switchover: master TARGET hands the control plane to its backup and becomes the backup",
        (at, to) -> new ControlPlaneHost.Switchover(false, at, to));
  }

  @Override
  String note(String target, ControlPlaneHost.RoleChanged r) {
    return r.ok() ? target + " switched over: now " + r.role() + " (" + r.detail() + ")"
        : "switchover refused by " + target + ": " + r.detail();
  }
}
