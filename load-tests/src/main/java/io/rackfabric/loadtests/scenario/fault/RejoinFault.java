package io.rackfabric.loadtests.scenario.fault;

import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.ScenarioContext;
import io.rackfabric.loadtests.scenario.language.Target;
import java.time.Duration;

/**
 * {@code rejoin}: the fenced management host TARGET asks the master that fenced it to take it back
 * as backup (Multi-peer "Redundancy": the repaired unit returns as the standby). The master checks
 * that TARGET's journal is a prefix of its own, sends the events it lacks and its state; TARGET
 * writes them under its next tenure's persistence id, becomes the backup, and the pair is
 * redundant again. At a model time the rack is held there until the hosts have done it; a master
 * still taking over answers once it serves. Refused (and noted) when TARGET is not fenced or its
 * journal is not a prefix of the master's.
 */
public final class RejoinFault implements FaultType {

  /** Reading both journals back and writing the transfer take seconds at most. */
  private static final Duration ANSWER = Duration.ofMinutes(2);

  @Override
  public String name() {
    return "rejoin";
  }

  @Override
  public String summary() {
    return "fenced management host TARGET rejoins as the backup of the master that fenced it";
  }

  @Override
  public Target target() {
    return ControlPlaneTarget.INSTANCE;
  }

  @Override
  public void check(FaultSpec fault, ScenarioContext context, Reporter report) {
    // At any time: a host that is not fenced then refuses, and the run notes it.
  }

  @Override
  public String apply(FaultSpec fault, int step, long modelAt, RunningRack rack) throws Exception {
    var host = ControlPlaneTarget.host(rack, fault.target());
    ControlPlaneHost.RoleChanged r = Asks.<ControlPlaneHost.Command, ControlPlaneHost.RoleChanged>ask(rack.system(),
        host, ControlPlaneHost.Rejoin::new, ANSWER);
    return r.ok() ? fault.target() + " rejoined: now " + r.role() + " (" + r.detail() + ")"
        : "rejoin refused for " + fault.target() + ": " + r.detail();
  }

  @Override
  public boolean takesLinkDown(FaultSpec fault, int step) {
    return false;
  }
}
