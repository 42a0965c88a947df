package io.rackfabric.loadtests.bench;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.receptionist.ServiceKey;
import io.rackfabric.fabric.wire.WireMessage;

/**
 * End of the bare chain: counts payloads and acknowledges them cumulatively every {@code
 * ackEvery}, the baseline's counterpart of batched credit returns.
 */
public final class BareSink extends AbstractBehavior<BareSink.Command> {

  public sealed interface Command permits BarePayload, Attach {}

  /** The key a peer JVM's sink is registered under, for the cross-JVM baseline to find it. */
  public static final ServiceKey<Command> KEY = ServiceKey.create(Command.class, "bench-bare-sink");

  /** Tells the sink where to send acknowledgements for the next run. */
  public record Attach(ActorRef<BareSource.Command> source, int ackEvery) implements Command, WireMessage {}

  private ActorRef<BareSource.Command> source;
  private int ackEvery = 1;
  private long received;

  public static Behavior<Command> create() {
    return Behaviors.setup(BareSink::new);
  }

  private BareSink(ActorContext<Command> context) {
    super(context);
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(BarePayload.class, this::onPayload)
        .onMessage(Attach.class, this::onAttach)
        .build();
  }

  private Behavior<Command> onAttach(Attach msg) {
    source = msg.source();
    ackEvery = msg.ackEvery();
    received = 0;
    return this;
  }

  private Behavior<Command> onPayload(BarePayload msg) {
    received++;
    if (source != null && (received % ackEvery == 0 || msg.seq() == msg.total() - 1)) {
      source.tell(new BareSource.Acked(received));
    }
    return this;
  }
}
