package io.rackfabric.loadtests.bench;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;

/** One link of the bare tell chain: passes every payload on, with no fabric logic at all. */
public final class BareRelay extends AbstractBehavior<BareRelay.Command> {

  public sealed interface Command permits BarePayload {}

  private final ActorRef<BarePayload> next;

  public static Behavior<Command> create(ActorRef<BarePayload> next) {
    return Behaviors.setup(ctx -> new BareRelay(ctx, next));
  }

  private BareRelay(ActorContext<Command> context, ActorRef<BarePayload> next) {
    super(context);
    this.next = next;
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder().onMessage(BarePayload.class, this::onPayload).build();
  }

  private Behavior<Command> onPayload(BarePayload msg) {
    next.tell(msg);
    return this;
  }
}
