package io.rackfabric.fabric.time;

import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.wire.WireMessage;

/**
 * To a component (an endpoint or switch port): from now on handle model-time events only as
 * {@code keeper} grants (see {@link Synchronizer}). Sent by the node that runs the component,
 * once it finds the run's keeper.
 */
public record JoinKeeper(ActorRef<TimeKeeper.Command> keeper) implements PortMessage, WireMessage {}
