package io.rackfabric.loadtests.scenario.fault;

import akka.actor.typed.ActorRef;
import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.loadtests.scenario.language.ScenarioContext;
import io.rackfabric.loadtests.scenario.language.Target;
import io.rackfabric.cluster.topology.ControlPlaneSpec;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import java.time.Duration;
import java.util.Optional;

/** The target of a control-plane fault: one management host of the topology's pair. */
final class ControlPlaneTarget implements Target {

  static final ControlPlaneTarget INSTANCE = new ControlPlaneTarget();

  private ControlPlaneTarget() {}

  @Override
  public String description() {
    return "a management host of the topology's control-plane pair";
  }

  @Override
  public Optional<String> problem(String target, ScenarioContext context) {
    ControlPlaneSpec pair = context.topology().controlPlane();
    if (pair == null) {
      return Optional.of("topology " + context.topology().name() + " has no control-plane section");
    }
    if (!target.equals(pair.master()) && !target.equals(pair.backup())) {
      return Optional.of("'" + target + "' is not a management host of the control plane (" + pair.master()
          + ", " + pair.backup() + ")");
    }
    return Optional.empty();
  }

  /** Draining a full queue, recovering a controller or reading journals back take seconds at most. */
  private static final Duration ROLE_CHANGE = Duration.ofMinutes(2);

  /** Asks management host {@code id} for a role change and waits for its answer. */
  static ControlPlaneHost.RoleChanged changeRole(RunningRack rack, String id,
      java.util.function.Function<ActorRef<ControlPlaneHost.RoleChanged>, ControlPlaneHost.Command> message)
      throws Exception {
    return Asks.ask(rack.system(), host(rack, id), message, ROLE_CHANGE);
  }

  static ActorRef<ControlPlaneHost.Command> host(RunningRack rack, String id) throws Exception {
    return Asks.find(rack.system(), ComponentKeys.controlPlaneHost(id), Duration.ofSeconds(10));
  }
}
