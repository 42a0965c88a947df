package io.rackfabric.fabric.endpoint;

import akka.actor.typed.ActorRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An endpoint's guests (see {@link GuestCall}) and the calls it waits on: which reply addresses
 * belong to a guest (the adapters it watches and reads with), and which calls are unanswered.
 * Not thread-safe: one owner (the endpoint's actor).
 */
final class EndpointGuests {

  private final List<ActorRef<GuestCall>> guests = new ArrayList<>();
  private final Map<ActorRef<?>, ActorRef<GuestCall>> byReplyRef = new HashMap<>();
  /** Open calls and the guest each waits on. */
  private final Map<Long, ActorRef<GuestCall>> open = new HashMap<>();
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

  boolean attached(ActorRef<GuestCall> guest) {
    return guests.contains(guest);
  }

  /**
   * Takes a guest off (its software stopped): nothing is sent to it any more, its reply addresses
   * are nobody's, and its open calls are closed. True when that left no call open.
   */
  boolean detach(ActorRef<GuestCall> guest) {
    guests.remove(guest);
    byReplyRef.values().removeIf(g -> g.equals(guest));
    boolean had = open.values().removeIf(g -> g.equals(guest));
    return had && open.isEmpty();
  }

  /** Opens a call to {@code guest}; returns its number. */
  long open(ActorRef<GuestCall> guest) {
    open.put(++lastCall, guest);
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
