package io.rackfabric.host.device;

import akka.actor.typed.ActorRef;
import akka.actor.typed.javadsl.ActorContext;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.EndpointEvent;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Host software that drives a device (or forwards its interrupts) as a guest of its root
 * endpoint, watching writes that land in the host's RAM: the adapters that turn the endpoint's
 * calls and the watched writes into the actor's own command, the attach and watches, and the
 * endpoint's requests it makes (writes, wakes). A watched write is never told directly once
 * attached: the endpoint calls its guest with it, at its model time.
 *
 * <p>Not thread-safe: the owning actor's.
 */
public final class WatchingGuest {

  private final ActorRef<MemoryEndpoint.Command> endpoint;
  private final ActorRef<GuestCall> calls;
  private final ActorRef<EndpointEvent> writes;

  /** @param called wraps one of the endpoint's calls into the owning actor's command */
  public <C> WatchingGuest(ActorContext<C> context, ActorRef<MemoryEndpoint.Command> endpoint,
      Function<GuestCall, C> called) {
    this.endpoint = endpoint;
    this.calls = context.messageAdapter(GuestCall.class, called::apply);
    this.writes = context.messageAdapter(EndpointEvent.class, e -> called.apply(new GuestCall.Event(0, e)));
  }

  /**
   * Attaches to the endpoint and watches {@code watched}; {@code replies} are further refs of the
   * guest's the endpoint answers through (a read's result), so their answers come as calls too.
   */
  public void attach(List<AddressRange> watched, List<ActorRef<?>> replies) {
    List<ActorRef<?>> refs = new ArrayList<>();
    refs.add(writes);
    refs.addAll(replies);
    endpoint.tell(new MemoryEndpoint.AttachGuest(calls, refs));
    watched.forEach(range -> endpoint.tell(new MemoryEndpoint.Watch(range, writes)));
  }

  /** A call of the guest at model time {@code at}, with {@code token}. */
  public void wake(long at, long token) {
    endpoint.tell(new MemoryEndpoint.WakeGuest(calls, at, token));
  }

  /** Takes back the wake {@code token}: a stale one keeps the rack running no longer. */
  public void cancelWake(long token) {
    endpoint.tell(new MemoryEndpoint.CancelWake(calls, token));
  }

  /** A posted write of {@code data} at {@code address}, issued at model time {@code at}. */
  public void write(long address, byte[] data, long at) {
    endpoint.tell(new MemoryEndpoint.Write(address, data, at));
  }

  /** The endpoint itself, for requests of its own kind (a read, a store). */
  public ActorRef<MemoryEndpoint.Command> endpoint() {
    return endpoint;
  }

  /** Answers {@code call}, after everything it caused was sent: it enters the model at the call's time. */
  public void answer(GuestCall call) {
    call.answer(endpoint);
  }
}
