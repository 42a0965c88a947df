package io.rackfabric.loadtests.bench;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import io.rackfabric.fabric.wire.WireMessage;
import java.util.concurrent.CompletableFuture;

/**
 * Head of the bare chain: keeps at most {@code window} payloads unacknowledged, as the fabric's
 * credits do, and completes {@code done} with the wall time when all were acknowledged.
 */
public final class BareSource extends AbstractBehavior<BareSource.Command> {

  public sealed interface Command permits Acked, Go {}

  public record Acked(long count) implements Command, WireMessage {}

  /** Starts sending; internal to the benchmark JVM. */
  record Go() implements Command {}

  private final ActorRef<BarePayload> first;
  private final long total;
  private final int window;
  private final byte[] data;
  private final CompletableFuture<Long> done;
  private long sent;
  private long acked;
  private long startNanos;

  public static Behavior<Command> create(
      ActorRef<BarePayload> first, long total, int window, int size, CompletableFuture<Long> done) {
    return Behaviors.setup(ctx -> new BareSource(ctx, first, total, window, size, done));
  }

  private BareSource(ActorContext<Command> context, ActorRef<BarePayload> first, long total, int window,
      int size, CompletableFuture<Long> done) {
    super(context);
    this.first = first;
    this.total = total;
    this.window = window;
    this.data = new byte[size];
    this.done = done;
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Go.class, this::onGo)
        .onMessage(Acked.class, this::onAcked)
        .build();
  }

  private Behavior<Command> onGo(Go msg) {
    startNanos = System.nanoTime();
    fill();
    return this;
  }

  private Behavior<Command> onAcked(Acked msg) {
    acked = Math.max(acked, msg.count());
    if (acked >= total) {
      done.complete(System.nanoTime() - startNanos);
      return Behaviors.stopped();
    }
    fill();
    return this;
  }

  private void fill() {
    while (sent < total && sent - acked < window) {
      first.tell(new BarePayload(sent, total, data));
      sent++;
    }
  }
}
