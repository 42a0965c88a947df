package io.rackfabric.fabric.port;

import akka.actor.Cancellable;
import akka.actor.CoordinatedShutdown;
import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.PostStop;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.ReceiveBuilder;
import io.rackfabric.fabric.control.ControlOrigins;
import io.rackfabric.fabric.link.FaultHorizon;
import io.rackfabric.fabric.link.LinkEnd;
import io.rackfabric.fabric.link.LinkErrors;
import io.rackfabric.fabric.link.LinkFrame;
import io.rackfabric.fabric.link.LinkTicks;
import io.rackfabric.fabric.link.LinkTimers;
import io.rackfabric.fabric.link.PartnerLink;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.time.PortTime;
import io.rackfabric.fabric.wire.WireMessage;
import java.util.function.Supplier;

/**
 * The link side of a port-like actor (a switch port, an endpoint), written once: its protocol
 * ({@link Command}: what the link directory and the run driver tell any port-like actor), finding
 * and watching the partner, the partner's death as a model-time event, the driver's link commands
 * (set the link up or down, inject link errors, hold from a model time; each from an admitted
 * origin only), the data link ticks, the wire, and what stopping does. The actor registers it with
 * {@link #linkMessages}.
 *
 * <p>Not thread-safe: one owner, the actor.
 */
public final class LinkPort {

  /** What any port-like actor takes on its link side, whichever actor it is. */
  public sealed interface Command extends PortMessage permits Connect, SetLink, InjectLinkErrors, HoldFrom {}

  /** Connects the link to a partner directly (tests, or when the Receptionist is not used). */
  public record Connect(ActorRef<LinkFrame> partner) implements Command, WireMessage {}

  /**
   * Fault injection: takes the link down (or brings it back) at this end, at a model time.
   * {@code origin} is the sending side: applied only from the run's driver or this node ({@link
   * io.rackfabric.fabric.control.ControlOrigin}), as are {@link InjectLinkErrors} and {@link HoldFrom}.
   */
  public record SetLink(boolean up, long modelAt, ActorRef<?> origin) implements Command, WireMessage {}

  /**
   * Fault injection: drops, corrupts or delays TLPs this end transmits (see {@link LinkErrors});
   * {@link LinkErrors#NONE} stops it. Answered with the errors now in force.
   */
  public record InjectLinkErrors(LinkErrors errors, ActorRef<LinkErrors> replyTo) implements Command, WireMessage {}

  /**
   * Holds TLPs that would start on this end's link at or after {@code modelAt} until raised
   * ({@code Long.MAX_VALUE}: hold nothing); answered once in effect, also in whatever else the
   * owner holds with its link ({@link HoldReach}: an endpoint's guests). Scenarios set it to the
   * next fault's model time (see {@link LinkEnd#holdFrom}).
   */
  public record HoldFrom(long modelAt, ActorRef<FaultHorizon> replyTo) implements Command, WireMessage {}

  /**
   * What else a {@link HoldFrom} must reach before it is answered (an endpoint's host software, on
   * its own timers): {@code reached} runs once it has.
   */
  @FunctionalInterface
  public interface HoldReach {
    /** Nothing beyond the link (a switch port). */
    HoldReach LINK_ONLY = (modelAt, reached) -> reached.run();

    void hold(long modelAt, Runnable reached);
  }

  // Local only, like every scheduled tick: exempt from serialize-messages checks.
  private enum Tick implements PortMessage, NoSerializationVerificationNeeded { INSTANCE }

  /**
   * The link side of any port-like actor's reference: the actor takes every {@link PortMessage}
   * its {@link #linkMessages} registered, whatever its own protocol's type says.
   */
  public static ActorRef<Command> of(ActorRef<? extends PortMessage> ref) {
    return ref.<PortMessage>unsafeUpcast().narrow();
  }

  private final ActorContext<PortMessage> context;
  private final String name;
  private final String kind;
  private final LinkEnd link;
  private final PortTime time;
  private final Cancellable ticks;
  private final HoldReach holdReach;
  private final PartnerLink partner = new PartnerLink();

  /**
   * Starts the data link ticks (cancelled when the actor stops).
   *
   * @param name the actor's component name (logs, origin checks)
   * @param kind how logs call it: "Port", "Endpoint"
   */
  public LinkPort(ActorContext<PortMessage> context, String name, String kind, LinkEnd link, PortTime time,
      LinkTimers timers) {
    this(context, name, kind, link, time, timers, HoldReach.LINK_ONLY);
  }

  /** As above; a hold reaches {@code holdReach} too before it is answered. */
  public LinkPort(ActorContext<PortMessage> context, String name, String kind, LinkEnd link, PortTime time,
      LinkTimers timers, HoldReach holdReach) {
    this.context = context;
    this.name = name;
    this.kind = kind;
    this.link = link;
    this.time = time;
    this.ticks = LinkTicks.start(context, timers, Tick.INSTANCE);
    this.holdReach = holdReach;
  }

  /** Registers the link side's messages, and the stop, on the actor's {@code builder}. */
  public ReceiveBuilder<PortMessage> linkMessages(ReceiveBuilder<PortMessage> builder,
      Supplier<Behavior<PortMessage>> self) {
    return builder
        .onMessage(Tick.class, t -> {
          link.tick();
          return self.get();
        })
        .onMessage(Connect.class, c -> {
          connect(c.partner());
          return self.get();
        })
        .onMessage(PartnerLink.Gone.class, g -> {
          partnerGone(g);
          return self.get();
        })
        .onMessage(SetLink.class, m -> {
          setLink(m);
          return self.get();
        })
        .onMessage(InjectLinkErrors.class, m -> {
          injectErrors(m);
          return self.get();
        })
        .onMessage(HoldFrom.class, m -> {
          holdFrom(m);
          return self.get();
        })
        .onSignal(PostStop.class, stop -> {
          stop();
          return self.get();
        });
  }

  /** The partner's actor was found: train with it, and watch it. */
  private void connect(ActorRef<LinkFrame> partnerRef) {
    if (partner.connect(partnerRef, link)) {
      context.watchWith(partnerRef, new PartnerLink.Gone(partnerRef));
    }
  }

  /** The partner's death enters the model as one of this end's events, at its clock now. */
  private void partnerGone(PartnerLink.Gone msg) {
    time.schedule(time.now(), msg);
  }

  /** The partner's death, handled as the model-time event {@link #partnerGone} scheduled. */
  public void partnerGoneAtItsTime(PartnerLink.Gone msg) {
    partner.gone(msg, link);
  }

  /** The driver takes the link up or down at a model time. */
  private void setLink(SetLink msg) {
    if (ControlOrigins.admits(context, name, msg, msg.origin())) {
      partner.setLink(msg.up(), msg.modelAt(), link);
    }
  }

  /** The driver injects link errors; they are answered back. */
  private void injectErrors(InjectLinkErrors msg) {
    if (!ControlOrigins.admits(context, name, msg, msg.replyTo())) {
      return;
    }
    context.getLog().info("{} [{}] injecting link errors {}", kind, name, msg.errors());
    link.injectErrors(msg.errors());
    msg.replyTo().tell(msg.errors());
  }

  /** The driver holds the link from a model time: answered with the horizon once all it reaches has it. */
  private void holdFrom(HoldFrom msg) {
    if (ControlOrigins.admits(context, name, msg, msg.replyTo())) {
      link.holdFrom(msg.modelAt());
      holdReach.hold(msg.modelAt(), () -> msg.replyTo().tell(new FaultHorizon(msg.modelAt())));
    }
  }

  /** A frame on the wire to the partner, counted for the kernel when it is a model-time event. */
  public void send(LinkFrame frame) {
    if (partner.send(frame)) {
      time.sentOnLink(frame);
    }
  }

  /** The actor stopped: no more ticks, and the partner learns the link is gone. */
  private void stop() {
    ticks.cancel();
    // The whole actor system shutting down (the end of a run, a node leaving): its partners stop
    // or learn of it by death watch and silence. A surprise down sent now would carry this end's
    // clock, which stands at its last event (near 0 for a port idle since training), and reach
    // partners far ahead of it as a straggler.
    if (CoordinatedShutdown.get(context.getSystem()).getShutdownReason().isEmpty()) {
      partner.stop(link);
    }
  }
}
