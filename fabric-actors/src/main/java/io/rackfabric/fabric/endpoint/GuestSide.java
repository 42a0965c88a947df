package io.rackfabric.fabric.endpoint;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.javadsl.ActorContext;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.AttachGuest;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.CancelWake;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.DetachGuest;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.GuestDone;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.KeepFabricDatabase;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.PeerMessage;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.SendToPeer;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.WakeGuest;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.time.PortTime;
import java.util.List;
import java.util.function.LongFunction;

/**
 * A memory endpoint's side of its guests (see {@link GuestCall}): attaching them, and detaching one
 * whose actor stops; calling them, with the endpoint's synchronizer suspended until no call is open;
 * their wakes, the messages between guests on guest channels ({@link GuestChannels}), and hold
 * notices. Not thread-safe: the endpoint actor's own.
 */
final class GuestSide {

  /** A guest's wake, due as one of the endpoint's model-time events. */
  private record GuestWake(ActorRef<GuestCall> guest, long token) implements PortMessage,
      NoSerializationVerificationNeeded {}

  private final String id;
  private final ActorContext<PortMessage> context;
  private final PortTime time;
  private final EndpointGuests guests = new EndpointGuests();
  private final GuestChannels peers;
  /** The guest keeping the fabric manager's database in its controller's state; null: none. */
  private ActorRef<GuestCall> databaseKeeper;

  /** Declares the guest channels to {@code guestPeers} on {@code time} (before it joins a keeper). */
  GuestSide(String id, ActorContext<PortMessage> context, PortTime time, List<GuestPeer> guestPeers) {
    this.id = id;
    this.context = context;
    this.time = time;
    this.peers = new GuestChannels(guestPeers, time);
  }

  /** Takes the guest protocol's messages: from guests, and between endpoints for them. */
  void register(PartMessages on) {
    on.on(AttachGuest.class, this::attach)
        .on(DetachGuest.class, this::detach)
        .on(GuestDone.class, this::done)
        .on(WakeGuest.class, this::wake)
        .on(CancelWake.class, this::cancelWake)
        .on(SendToPeer.class, this::sendToPeer)
        .on(PeerMessage.class, this::peerMessage)
        .on(KeepFabricDatabase.class, this::keepFabricDatabase);
  }

  /** The endpoint joined a keeper: its guests run under the kernel from now on. */
  void joined() {
    guests.all().forEach(g -> g.tell(new GuestCall.Attached(true)));
  }

  /** Attaches a guest, and detaches it when its actor stops without saying so. */
  void attach(AttachGuest msg) {
    guests.attach(msg.guest(), msg.replyRefs());
    context.watchWith(msg.guest(), new DetachGuest(msg.guest()));
    msg.guest().tell(new GuestCall.Attached(time.joined()));
  }

  void detach(DetachGuest msg) {
    context.unwatch(msg.guest());
    if (guests.detach(msg.guest())) {
      time.resume();
    }
  }

  void done(GuestDone msg) {
    if (guests.answered(msg.call())) {
      time.resume();
    }
  }

  /**
   * A hold of the link reaches the guests too ({@link GuestCall.Hold}); {@code reached} runs once
   * each answered. A notice outside model time: the endpoint's events go on meanwhile.
   */
  void hold(long modelAt, Runnable reached) {
    guests.openNotices(reached).forEach((guest, call) -> guest.tell(new GuestCall.Hold(call, modelAt)));
  }

  void wake(WakeGuest msg) {
    GuestWake wake = new GuestWake(msg.guest(), msg.token());
    if (msg.background()) {
      time.scheduleBackground(msg.at(), wake);
    } else {
      time.schedule(msg.at(), wake);
    }
  }

  /** The queued wake is found by equality: the same guest and token. */
  void cancelWake(CancelWake msg) {
    time.cancel(new GuestWake(msg.guest(), msg.token()));
  }

  void sendToPeer(SendToPeer msg) {
    if (msg.peer().equals(id)) { // a neighbour guest: in order with the endpoint's own events
      time.schedule(msg.at(), new PeerMessage(id, msg.to(), msg.payload(), msg.at()));
      return;
    }
    GuestChannels.Out out = peers.out(msg.peer());
    if (out == null) {
      context.getLog().warn("Endpoint [{}] has no guest channel to [{}]: a guest's {} dropped", id, msg.peer(),
          msg.payload() == null ? "message" : msg.payload().getClass().getSimpleName());
      return;
    }
    long at = time.joined() ? Math.max(msg.at(), time.now()) : msg.at();
    msg.peerEndpoint().tell(new PeerMessage(id, msg.to(), msg.payload(), at + out.lookaheadNs()));
    time.sent(out.channel());
  }

  /** Counted in whatever it carries (its sender counted it out), and judged when it is due. */
  void peerMessage(PeerMessage msg) {
    time.receive(msg.dueAt(), peers.in(msg.from()), msg);
  }

  /**
   * Handles a model-time event that is the guests' (a wake, a message from a guest): calls the
   * guest with it, or drops it when the guest is gone; false when the event is not the guests'.
   */
  boolean timed(PortMessage event) {
    if (event instanceof GuestWake w) {
      if (guests.attached(w.guest())) { // a detached guest's timers end with it
        w.guest().tell(new GuestCall.Wake(guests.open(w.guest()), time.now(), w.token()));
        time.suspend();
      }
      return true;
    }
    if (!(event instanceof PeerMessage m)) {
      return false;
    }
    if ((peers.knows(m.from()) || m.from().equals(id)) && guests.all().contains(m.to())) {
      m.to().tell(new GuestCall.FromPeer(guests.open(m.to()), time.now(), m.from(), m.payload()));
      time.suspend();
    } else {
      context.getLog().warn("Endpoint [{}] dropped a guest message from [{}]: {}", id, m.from(),
          peers.knows(m.from()) ? "its guest is not attached here" : "no guest channel from it");
    }
    return true;
  }

  /**
   * Tells {@code to} {@code msg}, or, when {@code to} is a guest's, calls the guest with it: the
   * endpoint's next events then wait for its answer (see {@link GuestCall}).
   */
  <T> void tellOrCall(ActorRef<T> to, T msg, LongFunction<GuestCall> asCall) {
    ActorRef<GuestCall> guest = guests.guestOf(to);
    if (guest == null) {
      to.tell(msg);
      return;
    }
    guest.tell(asCall.apply(guests.open(guest)));
    time.suspend();
  }

  void keepFabricDatabase(KeepFabricDatabase msg) {
    databaseKeeper = msg.guest();
  }

  /**
   * Calls the guest keeping the fabric manager's database with {@code asCall} (the endpoint's next
   * events wait for its answer); false when no attached guest keeps it.
   */
  boolean callDatabaseKeeper(LongFunction<GuestCall> asCall) {
    if (databaseKeeper == null || !guests.attached(databaseKeeper)) {
      return false;
    }
    databaseKeeper.tell(asCall.apply(guests.open(databaseKeeper)));
    time.suspend();
    return true;
  }
}
