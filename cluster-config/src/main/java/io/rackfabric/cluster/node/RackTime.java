package io.rackfabric.cluster.node;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Props;
import akka.actor.typed.receptionist.Receptionist;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.time.TimeKeeper;

/**
 * Starts a rack run's model-time kernel: a {@link TimeKeeper} expecting every fabric component of
 * the topology, registered so that each node's {@link RackNode} finds it and joins its components.
 * One way for every kind of run to start it (a scenario's rack, {@code rack failover}).
 */
public final class RackTime {

  private RackTime() {}

  public static ActorRef<TimeKeeper.Command> start(ActorSystem<?> system, Topology topology) {
    ActorRef<TimeKeeper.Command> keeper =
        system.systemActorOf(TimeKeeper.create(RackNode.timeMembers(topology)), "time-keeper", Props.empty());
    system.receptionist().tell(Receptionist.register(TimeKeeper.KEY, keeper));
    return keeper;
  }
}
