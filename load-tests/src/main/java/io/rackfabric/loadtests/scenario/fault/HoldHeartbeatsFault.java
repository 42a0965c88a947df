package io.rackfabric.loadtests.scenario.fault;

import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.Param;
import io.rackfabric.loadtests.scenario.language.Params;
import io.rackfabric.loadtests.scenario.language.ScenarioContext;
import io.rackfabric.loadtests.scenario.language.Target;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import java.util.List;

/**
 * {@code hold-heartbeats}: the master TARGET lives and serves but its heartbeats stop reaching the
 * backup for {@code for} of wall time: a false suspicion. The backup fences it and takes over; the
 * old master learns it is fenced and acknowledges nothing more, so both journals agree on every
 * acknowledged operation. In wall time, like the heartbeats' own timers.
 */
public final class HoldHeartbeatsFault implements FaultType {

  @Override
  public String name() {
    return "hold-heartbeats";
  }

  @Override
  public String summary() {
    return "master TARGET keeps serving but sends no heartbeat for FOR of wall time (a false suspicion)";
  }

  @Override
  public List<Param> params() {
    return WallWindow.params("how long no heartbeat leaves (wall time)");
  }

  @Override
  public Target target() {
    return ControlPlaneTarget.INSTANCE;
  }

  @Override
  public boolean stampsModelTime() {
    return false;
  }

  @Override
  public List<Long> steps(long at, Params params) {
    return WallWindow.steps(at, params);
  }

  @Override
  public void check(FaultSpec fault, ScenarioContext context, Reporter report) {
    WallWindow.check(fault, report, "heartbeats run on wall-clock timers");
  }

  @Override
  public String apply(FaultSpec fault, int step, long modelAt, RunningRack rack) throws Exception {
    ControlPlaneTarget.host(rack, fault.target()).tell(new ControlPlaneHost.HoldHeartbeats(step == 0));
    return step == 0 ? fault.target() + " holds its heartbeats for " + WallWindow.length(fault)
        : fault.target() + " sends heartbeats again";
  }

  @Override
  public boolean takesLinkDown(FaultSpec fault, int step) {
    return false;
  }
}
