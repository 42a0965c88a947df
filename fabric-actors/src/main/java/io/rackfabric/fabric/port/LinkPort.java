package io.rackfabric.fabric.port;

import akka.actor.Cancellable;
import akka.actor.typed.ActorRef;
import akka.actor.typed.javadsl.ActorContext;
import io.rackfabric.fabric.control.ControlOrigins;
import io.rackfabric.fabric.link.FaultHorizon;
import io.rackfabric.fabric.link.LinkEnd;
import io.rackfabric.fabric.link.LinkErrors;
import io.rackfabric.fabric.link.LinkFrame;
import io.rackfabric.fabric.link.PartnerLink;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.time.PortTime;

/**
 * The link side of a port-like actor (a switch port, an endpoint), written once: finding and
 * watching the partner, the partner's death as a model-time event, the run driver's link commands
 * (set the link up or down, inject link errors, hold from a model time; each from an admitted
 * origin only), the data link ticks, the wire, and what stopping does. Each actor keeps its own
 * message records (its typed protocol) and hands their fields here.
 *
 * <p>Not thread-safe: one owner, the actor.
 */
public final class LinkPort {

  private final ActorContext<PortMessage> context;
  private final String name;
  private final String kind;
  private final LinkEnd link;
  private final PortTime time;
  private final Cancellable ticks;
  private final PartnerLink partner = new PartnerLink();

  /**
   * @param name the actor's component name (logs, origin checks)
   * @param kind how logs call it: "Port", "Endpoint"
   * @param ticks the data link ticks started for the actor, cancelled when it stops
   */
  public LinkPort(ActorContext<PortMessage> context, String name, String kind, LinkEnd link, PortTime time,
      Cancellable ticks) {
    this.context = context;
    this.name = name;
    this.kind = kind;
    this.link = link;
    this.time = time;
    this.ticks = ticks;
  }

  /** A data link tick. */
  public void tick() {
    link.tick();
  }

  /** The partner's actor was found: train with it, and watch it. */
  public void connect(ActorRef<LinkFrame> partnerRef) {
    if (partner.connect(partnerRef, link)) {
      context.watchWith(partnerRef, new PartnerLink.Gone(partnerRef));
    }
  }

  /** The partner's death enters the model as one of this end's events, at its clock now. */
  public void partnerGone(PartnerLink.Gone msg) {
    time.schedule(time.now(), msg);
  }

  /** The partner's death, handled as the model-time event {@link #partnerGone} scheduled. */
  public void partnerGoneAtItsTime(PartnerLink.Gone msg) {
    partner.gone(msg, link);
  }

  /** The driver takes the link up or down at model time {@code modelAt} ({@code msg}: for the log). */
  public void setLink(Object msg, boolean up, long modelAt, ActorRef<?> origin) {
    if (ControlOrigins.admits(context, name, msg, origin)) {
      partner.setLink(up, modelAt, link);
    }
  }

  /** The driver injects link errors; they are answered back. */
  public void injectErrors(Object msg, LinkErrors errors, ActorRef<LinkErrors> replyTo) {
    if (!ControlOrigins.admits(context, name, msg, replyTo)) {
      return;
    }
    context.getLog().info("{} [{}] injecting link errors {}", kind, name, errors);
    link.injectErrors(errors);
    replyTo.tell(errors);
  }

  /** The driver holds the link from model time {@code modelAt}: answered with the horizon. */
  public void holdFrom(Object msg, long modelAt, ActorRef<FaultHorizon> replyTo) {
    if (ControlOrigins.admits(context, name, msg, replyTo)) {
      link.holdFrom(modelAt);
      replyTo.tell(new FaultHorizon(modelAt));
    }
  }

  /** A frame on the wire to the partner, counted for the kernel when it is a model-time event. */
  public void send(LinkFrame frame) {
    if (partner.send(frame)) {
      time.sentOnLink(frame);
    }
  }

  /** The actor stopped: no more ticks, and the partner learns the link is gone. */
  public void stop() {
    ticks.cancel();
    partner.stop(link);
  }
}
