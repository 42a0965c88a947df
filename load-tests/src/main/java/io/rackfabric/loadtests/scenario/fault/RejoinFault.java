package io.rackfabric.loadtests.scenario.fault;

import io.rackfabric.host.controlplane.ControlPlaneHost;

/**
 * {@code rejoin}: the fenced management host TARGET asks the master that fenced it to take it back
 * as backup (Multi-peer "Redundancy": the repaired unit returns as the standby). The master checks
 * that TARGET's journal is a prefix of its own, sends the events it lacks and its state; TARGET
 * writes them under its next tenure's persistence id, becomes the backup, and the pair is
 * redundant again. At a model time the rack is held there until the hosts have done it; a master
 * still taking over answers once it serves. Refused (and noted) when TARGET is not fenced or its
 * journal is not a prefix of the master's.
 */
public final class RejoinFault extends RoleChangeFault {

  public RejoinFault() {
    super("rejoin", "fenced management host TARGET rejoins as the backup of the master that fenced it",
        (at, to) -> new ControlPlaneHost.Rejoin(to));
  }

  @Override
  String note(String target, ControlPlaneHost.RoleChanged r) {
    return r.ok() ? target + " rejoined: now " + r.role() + " (" + r.detail() + ")"
        : "rejoin refused for " + target + ": " + r.detail();
  }
}
