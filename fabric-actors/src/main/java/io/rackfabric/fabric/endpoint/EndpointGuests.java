package io.rackfabric.fabric.endpoint;

import akka.actor.typed.ActorRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An endpoint's guests (see {@link GuestCall}) and the calls it waits on: which reply addresses
 * belong to a guest (the adapters it watches and reads with), and which calls are unanswered.
 * Not thread-safe: one owner (the endpoint's actor).
 */
final class EndpointGuests {

  private final List<ActorRef<GuestCall>> guests = new ArrayList<>();
  private final Map<ActorRef<?>, ActorRef<GuestCall>> byReplyRef = new HashMap<>();
  private final Set<Long> open = new HashSet<>();
  private long lastCall;

  /** Attaches a guest; what the endpoint would send to one of {@code replyRefs} becomes a call to it. */
  void attach(ActorRef<GuestCall> guest, List<? extends ActorRef<?>> replyRefs) {
    if (!guests.contains(guest)) {
      guests.add(guest);
    }
    replyRefs.forEach(r -> byReplyRef.put(r, guest));
  }

  List<ActorRef<GuestCall>> all() {
    return guests;
  }

  /** The guest that answers for {@code replyTo}, or null when it is nobody's. */
  ActorRef<GuestCall> guestOf(ActorRef<?> replyTo) {
    return byReplyRef.get(replyTo);
  }

  /** Opens a call; returns its number. */
  long open() {
    open.add(++lastCall);
    return lastCall;
  }

  /** A guest answered {@code call}; true when no call is left open. */
  boolean answered(long call) {
    open.remove(call);
    return open.isEmpty();
  }

  int openCalls() {
    return open.size();
  }
}
