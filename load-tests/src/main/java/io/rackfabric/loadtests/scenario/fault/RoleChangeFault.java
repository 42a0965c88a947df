package io.rackfabric.loadtests.scenario.fault;

import akka.actor.typed.ActorRef;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.ScenarioContext;
import io.rackfabric.loadtests.scenario.language.Target;
import java.util.function.BiFunction;

/**
 * A fault that asks a management host of the pair for a role change and waits for its answer
 * (a switchover, a rejoin): allowed at any time (a host that cannot then refuses, and the run
 * notes it), it takes no link down. At a model time the rack is held there until the hosts are done.
 */
abstract class RoleChangeFault implements FaultType {

  private final String name;
  private final String summary;
  /** The message for the host, given the step's model time (0 for a wall-time step) and where to answer. */
  private final BiFunction<Long, ActorRef<ControlPlaneHost.RoleChanged>, ControlPlaneHost.Command> message;

  RoleChangeFault(String name, String summary,
      BiFunction<Long, ActorRef<ControlPlaneHost.RoleChanged>, ControlPlaneHost.Command> message) {
    this.name = name;
    this.summary = summary;
    this.message = message;
  }

  /** The record of the run's line for a change TARGET made ({@code r.ok()}) or refused. */
  abstract String note(String target, ControlPlaneHost.RoleChanged r);

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final String summary() {
    return summary;
  }

  @Override
  public final Target target() {
    return ControlPlaneTarget.INSTANCE;
  }

  @Override
  public final void check(FaultSpec fault, ScenarioContext context, Reporter report) {
    // At any time: a model time holds the rack while the hosts change roles.
  }

  @Override
  public final String apply(FaultSpec fault, int step, long modelAt, RunningRack rack) throws Exception {
    long at = Math.max(0, modelAt);
    return note(fault.target(), ControlPlaneTarget.changeRole(rack, fault.target(), to -> message.apply(at, to)));
  }

  @Override
  public final boolean takesLinkDown(FaultSpec fault, int step) {
    return false;
  }
}
