package io.rackfabric.fabric.link;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.receptionist.Receptionist;
import akka.actor.typed.receptionist.ServiceKey;
import java.util.Set;
import java.util.function.Function;

/**
 * Link ends find each other through the Receptionist, on any node: each end registers the
 * reference that accepts its {@link LinkFrame}s under its end name ("sw1.up", "ep2") and
 * subscribes to its partner's.
 */
public final class LinkDirectory {

  private LinkDirectory() {}

  public static ServiceKey<LinkFrame> key(String endName) {
    return ServiceKey.create(LinkFrame.class, "rackfabric-link:" + endName);
  }

  /**
   * Registers {@code self} as the link end {@code endName} and, when {@code partnerEnd} is given,
   * watches for the partner and sends {@code connect} to the owner each time it appears.
   */
  public static <T> void attach(ActorContext<T> context, String endName, ActorRef<LinkFrame> self,
      String partnerEnd, Function<ActorRef<LinkFrame>, T> connect) {
    context.getSystem().receptionist().tell(Receptionist.register(key(endName), self));
    if (partnerEnd != null) {
      watchPartner(context, partnerEnd, connect);
    }
  }

  /**
   * Watches for the partner end's registration and tells {@code owner} each time it appears or
   * changes. A child actor does the watching because every message adapter of an actor shares one
   * reference, and the Receptionist must not see the same reference as registered service and as
   * subscriber.
   */
  public static <T> void watchPartner(
      ActorContext<T> context, String partnerEnd, Function<ActorRef<LinkFrame>, T> connect) {
    ActorRef<T> owner = context.getSelf();
    ServiceKey<LinkFrame> key = key(partnerEnd);
    Behavior<Receptionist.Listing> watcher = Behaviors.setup(ctx -> {
      ctx.getSystem().receptionist().tell(Receptionist.subscribe(key, ctx.getSelf()));
      return Behaviors.receive(Receptionist.Listing.class)
          .onMessage(Receptionist.Listing.class, listing -> {
            Set<ActorRef<LinkFrame>> refs = listing.getServiceInstances(key);
            if (!refs.isEmpty()) {
              owner.tell(connect.apply(refs.iterator().next()));
            }
            return Behaviors.same();
          })
          .build();
    });
    context.spawn(watcher, "partner-watch");
  }
}
