package io.rackfabric.host.vm;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.EndpointEvent;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.host.device.WatchingGuest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The lender-side interrupt handler of a device lent to a VM (Device Lending, section 5): a guest
 * of the lender's root endpoint that watches the word the device's MSI writes in the lender's RAM
 * and, {@link VmSettings#forwardDelayNs} later in model time, writes the same data through the
 * fabric to where the borrower's guest waits for its interrupt. Each interrupt is forwarded once,
 * in order. Must run next to its endpoint.
 */
public final class InterruptForwarder extends AbstractBehavior<InterruptForwarder.Command> {

  public sealed interface Command permits Start, GetForwarded, Called {}

  /**
   * Watch {@code msiWord} (4 bytes of the lender's RAM) and forward each write to {@code to}, an
   * address as the lender reaches it; {@code replyTo} hears when the watch is set.
   */
  public record Start(long msiWord, long to, long delayNs, ActorRef<Forwarded> replyTo) implements Command,
      NoSerializationVerificationNeeded {}

  /** How many interrupts were forwarded so far. */
  public record GetForwarded(ActorRef<Forwarded> replyTo) implements Command, NoSerializationVerificationNeeded {}

  public record Forwarded(String lender, long count) implements NoSerializationVerificationNeeded {}

  private record Called(GuestCall call) implements Command, NoSerializationVerificationNeeded {}

  private final String lender;
  private final WatchingGuest guest;
  /** The data of each interrupt waiting for its wake, by the wake's token. */
  private final Map<Long, byte[]> pending = new HashMap<>();
  private long to;
  private long delayNs;
  private long nextToken = 1;
  private long forwarded;

  /** @param lender the lender's root endpoint id, in replies and logs */
  public static Behavior<Command> create(String lender, ActorRef<MemoryEndpoint.Command> endpoint) {
    return Behaviors.setup(ctx -> new InterruptForwarder(ctx, lender, endpoint));
  }

  private InterruptForwarder(ActorContext<Command> context, String lender, ActorRef<MemoryEndpoint.Command> endpoint) {
    super(context);
    this.lender = lender;
    this.guest = new WatchingGuest(context, endpoint, Called::new);
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Start.class, this::onStart)
        .onMessage(GetForwarded.class, this::onGetForwarded)
        .onMessage(Called.class, this::onCalled)
        .build();
  }

  private Behavior<Command> onStart(Start msg) {
    to = msg.to();
    delayNs = msg.delayNs();
    guest.attach(List.of(AddressRange.ofSize(msg.msiWord(), 4)), List.of());
    getContext().getLog().info("interrupt forwarder [{}] forwards writes at {} to {} after {} ns", lender,
        Long.toHexString(msg.msiWord()), Long.toHexString(to), delayNs);
    msg.replyTo().tell(new Forwarded(lender, forwarded));
    return this;
  }

  private Behavior<Command> onGetForwarded(GetForwarded msg) {
    msg.replyTo().tell(new Forwarded(lender, forwarded));
    return this;
  }

  private Behavior<Command> onCalled(Called msg) {
    GuestCall call = msg.call();
    if (call instanceof GuestCall.Event e && e.event() instanceof EndpointEvent.MemoryWritten m) {
      long token = nextToken++;
      pending.put(token, m.data());
      guest.wake(m.arrivedAt() + delayNs, token);
    } else if (call instanceof GuestCall.Wake w && pending.containsKey(w.token())) {
      guest.write(to, pending.remove(w.token()), w.at());
      forwarded++;
    }
    guest.answer(call); // after the write or the wake
    return this;
  }
}
