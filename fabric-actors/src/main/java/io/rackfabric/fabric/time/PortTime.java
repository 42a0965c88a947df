package io.rackfabric.fabric.time;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.ReceiveBuilder;
import io.rackfabric.fabric.link.LinkEnd;
import io.rackfabric.fabric.link.LinkFrame;
import io.rackfabric.fabric.link.PortMessage;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The model-time side of a port-like actor (a switch port, an endpoint), written once: its
 * {@link Synchronizer}, which link frames are model-time events, counting what goes out on the
 * link, joining a keeper with the link as a channel, and the kernel's messages the actor takes.
 * Each event is handled with the link end floored at its time ({@link LinkEnd#beginEvent}).
 */
public final class PortTime {

  /** One of the link end's own timers (the data link retry's), due as a model-time event. */
  private record LinkTimer(Runnable action) implements PortMessage {}

  private final LinkEnd link;
  private final String partnerEnd;
  private final Synchronizer<PortMessage> sync;
  private int partnerChannel = -1;

  /**
   * @param member the port's id in the keeper's graph (its link end name)
   * @param partnerEnd the link partner's end name, or null when unlinked
   * @param dispatch handles one model-time event (a frame or a message the actor put in with
   *     {@link #receive} or {@link #schedule})
   */
  public PortTime(String member, ActorRef<PortMessage> self, LinkEnd link, String partnerEnd,
      Consumer<PortMessage> dispatch) {
    this.link = link;
    this.partnerEnd = partnerEnd;
    this.sync = new Synchronizer<>(member, (event, time) -> {
      link.beginEvent(time);
      try {
        if (event instanceof LinkTimer t) {
          t.action().run();
        } else {
          dispatch.accept(event);
        }
      } finally {
        link.endEvent();
      }
    }, () -> self.tell(TimeKeeper.Flush.INSTANCE));
    // Declared from the start, so that what goes out on the link before a keeper is joined is
    // counted like what comes in: a late join then balances (a benchmark that joins after
    // free-running rounds, a node that finds the keeper after its links trained).
    if (partnerEnd != null) {
      partnerChannel = sync.declare(partnerEnd, link.lookaheadNs());
    }
  }

  /** A frame from the link: a model-time event, or link management handled at once by {@code now}. */
  public void frame(LinkFrame frame, Consumer<LinkFrame> now) {
    long at = link.modelArrival(frame);
    if (at < 0) {
      now.accept(frame);
    } else {
      sync.receive(at, 0, frame);
    }
  }

  /** A message from input channel {@code channel} (1 + a sibling port's number), due at {@code at}. */
  public void receive(long at, int channel, PortMessage msg) {
    sync.receive(at, channel, msg);
  }

  /** One of the port's own events at model {@code at}. */
  public void schedule(long at, PortMessage event) {
    sync.schedule(at, event);
  }

  /** One of the port's own events at a model time another component stamped (see {@link Synchronizer#scheduleStamped}). */
  public void scheduleStamped(long at, PortMessage event) {
    sync.scheduleStamped(at, event);
  }

  /** One of the port's own background events at model {@code at} (see {@link Synchronizer#scheduleBackground}). */
  public void scheduleBackground(long at, PortMessage event) {
    sync.scheduleBackground(at, event);
  }

  /**
   * Takes back an event scheduled with {@link #schedule} or {@link #scheduleBackground} (see
   * {@link Synchronizer#cancel}).
   */
  public void cancel(PortMessage event) {
    sync.cancel(event);
  }

  /** A frame went to the partner: counted for the keeper when it is a model-time event. */
  public void sentOnLink(LinkFrame frame) {
    if (partnerChannel >= 0 && link.modelArrival(frame) >= 0) {
      sync.sent(partnerChannel);
    }
  }

  /** Declares another channel (a sibling port) before joining; see {@link Synchronizer#declare}. */
  public int declare(String to, long lookaheadNs) {
    return sync.declare(to, lookaheadNs);
  }

  public void sent(int channel) {
    sync.sent(channel);
  }

  public boolean joined() {
    return sync.joined();
  }

  /** Joins the keeper with the link as a channel (a DLLP's flight: the least any frame takes). */
  public void join(JoinKeeper msg, ActorRef<TimeKeeper.Grant> self) {
    if (sync.joined()) {
      return;
    }
    link.useModelTimers((at, action) -> sync.schedule(at, new LinkTimer(action)));
    sync.join(msg.keeper(), self);
  }

  /** See {@link Synchronizer#suspend}: the port's next events wait for {@link #resume}. */
  public void suspend() {
    sync.suspend();
  }

  public void resume() {
    sync.resume();
  }

  /** Model time of the event being handled (or of the last one). */
  public long now() {
    return sync.now();
  }

  /** Adds the kernel's messages (grant, flush, confirm) to the actor's receive. */
  public ReceiveBuilder<PortMessage> kernelMessages(ReceiveBuilder<PortMessage> builder,
      Supplier<Behavior<PortMessage>> self) {
    return builder
        .onMessage(TimeKeeper.Grant.class, g -> {
          sync.onGrant(g);
          return self.get();
        })
        .onMessage(TimeKeeper.Flush.class, f -> {
          sync.flush();
          return self.get();
        })
        .onMessage(TimeKeeper.Confirm.class, c -> {
          sync.confirm(c);
          return self.get();
        })
        .onMessage(TimeKeeper.Pause.class, p -> {
          sync.pause(p.from(), p.until());
          sync.confirm(new TimeKeeper.Confirm(p.replyTo()));
          return self.get();
        });
  }
}
