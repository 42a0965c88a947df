package io.rackfabric.loadtests.scenario.fault;

import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.Param;
import io.rackfabric.loadtests.scenario.language.Params;
import io.rackfabric.loadtests.scenario.language.ScenarioContext;
import io.rackfabric.loadtests.scenario.language.Target;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import java.util.List;

/**
 * {@code hold-heartbeats}: the master TARGET lives and serves but its heartbeats stop reaching the
 * backup for {@code for}: a false suspicion. The backup fences it and takes over; the old master
 * learns it is fenced and acknowledges nothing more, so both journals agree on every acknowledged
 * operation. {@code for} is on {@code at}'s clock. At a model time (a run under the kernel, where
 * the heartbeats are model-time events) the rack is held before {@code at} while the master is
 * told, so the first heartbeat held is the first one due at {@code at} or later, on every run; at
 * a wall time the heartbeats stop wherever the master's clock is then.
 */
public final class HoldHeartbeatsFault implements FaultType {

  @Override
  public String name() {
    return "hold-heartbeats";
  }

  @Override
  public String summary() {
    return "master TARGET keeps serving but sends no heartbeat for FOR (a false suspicion); FOR on at's clock";
  }

  @Override
  public List<Param> params() {
    return WallWindow.params("how long no heartbeat leaves, on at's clock (model time for a model-time at)");
  }

  @Override
  public Target target() {
    return ControlPlaneTarget.INSTANCE;
  }

  @Override
  public List<Long> steps(long at, Params params) {
    return WallWindow.steps(at, params);
  }

  @Override
  public void check(FaultSpec fault, ScenarioContext context, Reporter report) {
    WallWindow.checkLength(fault, report);
  }

  @Override
  public String apply(FaultSpec fault, int step, long modelAt, RunningRack rack) throws Exception {
    var host = ControlPlaneTarget.host(rack, fault.target());
    host.tell(new ControlPlaneHost.HoldHeartbeats(step == 0));
    // Its status comes after the hold: the master has it before the held rack moves on.
    Asks.<ControlPlaneHost.Command, ControlPlaneHost.HostStatus>ask(rack.system(), host,
        ControlPlaneHost.GetStatus::new, java.time.Duration.ofSeconds(30));
    return step == 0 ? fault.target() + " holds its heartbeats for " + WallWindow.length(fault)
        : fault.target() + " sends heartbeats again";
  }

  @Override
  public boolean takesLinkDown(FaultSpec fault, int step) {
    return false;
  }
}
