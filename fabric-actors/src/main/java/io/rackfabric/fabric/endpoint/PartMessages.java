package io.rackfabric.fabric.endpoint;

import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.ReceiveBuilder;
import io.rackfabric.fabric.link.PortMessage;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A memory endpoint's receive builder as its parts see it: each part registers the messages of its
 * own protocol, one handler each, and the endpoint stays as it is after every one. The parts' side
 * of {@link MemoryEndpoint}'s "hands each message to one of its parts", as {@link
 * io.rackfabric.fabric.port.LinkPort#linkMessages} is for the link side.
 */
final class PartMessages {

  private final ReceiveBuilder<PortMessage> builder;
  private final Supplier<Behavior<PortMessage>> self;

  PartMessages(ReceiveBuilder<PortMessage> builder, Supplier<Behavior<PortMessage>> self) {
    this.builder = builder;
    this.self = self;
  }

  /** Hands every {@code type} message to {@code handler}. */
  <M extends PortMessage> PartMessages on(Class<M> type, Consumer<M> handler) {
    builder.onMessage(type, msg -> {
      handler.accept(msg);
      return self.get();
    });
    return this;
  }
}
