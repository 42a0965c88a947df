package io.rackfabric.fabric.link;

import akka.actor.Cancellable;
import akka.actor.typed.ActorRef;
import akka.actor.typed.javadsl.ActorContext;

/**
 * The data link timers' tick for a port actor. Scheduled on the system scheduler rather than with
 * Behaviors.withTimers, whose interceptor would inspect every TLP the port handles just to find
 * the rare tick. The owner cancels it when it stops.
 */
public final class LinkTicks {

  private LinkTicks() {}

  public static <T> Cancellable start(ActorContext<T> context, LinkTimers timers, T tick) {
    // Taken here, on the actor's thread: the context must not be touched from the scheduler's.
    ActorRef<T> self = context.getSelf();
    return context.getSystem().scheduler().scheduleAtFixedRate(
        timers.tickInterval(), timers.tickInterval(),
        () -> self.tell(tick), context.getExecutionContext());
  }
}
