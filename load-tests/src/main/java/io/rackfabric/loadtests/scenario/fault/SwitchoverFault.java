package io.rackfabric.loadtests.scenario.fault;

import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.ScenarioContext;
import io.rackfabric.loadtests.scenario.language.Target;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import java.time.Duration;

/**
 * {@code switchover}: a managed switchover of the control plane (Multi-peer "Redundancy"), asked of
 * the master TARGET: it quiesces, lets every outstanding operation be acknowledged, hands over to
 * its backup, forwards what queued meanwhile, and becomes the new master's backup. No link goes
 * down. At a model time (a run under the kernel) the rack is held there while the hosts hand over:
 * the new master goes on from the model time the hand-over reached, its heartbeats from there, the
 * same on every run. At a wall time it happens wherever the hosts' clocks are then.
 */
public final class SwitchoverFault implements FaultType {

  /** Draining a full queue and recovering the controller on the backup take seconds at most. */
  private static final Duration ANSWER = Duration.ofMinutes(2);

  @Override
  public String name() {
    return "switchover";
  }

  @Override
  public String summary() {
    return "managed switchover: master TARGET hands the control plane to its backup and becomes the backup";
  }

  @Override
  public Target target() {
    return ControlPlaneTarget.INSTANCE;
  }

  @Override
  public void check(FaultSpec fault, ScenarioContext context, Reporter report) {
    // At any time: a model time holds the rack while the hosts hand over.
  }

  @Override
  public String apply(FaultSpec fault, int step, long modelAt, RunningRack rack) throws Exception {
    var host = ControlPlaneTarget.host(rack, fault.target());
    ControlPlaneHost.RoleChanged r = Asks.<ControlPlaneHost.Command, ControlPlaneHost.RoleChanged>ask(rack.system(),
        host, to -> new ControlPlaneHost.Switchover(false, to), ANSWER);
    return r.ok() ? fault.target() + " switched over: now " + r.role() + " (" + r.detail() + ")"
        : "switchover refused by " + fault.target() + ": " + r.detail();
  }

  @Override
  public boolean takesLinkDown(FaultSpec fault, int step) {
    return false;
  }
}
