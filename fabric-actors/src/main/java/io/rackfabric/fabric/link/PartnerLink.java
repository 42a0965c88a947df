package io.rackfabric.fabric.link;

import akka.actor.typed.ActorRef;

/**
 * A port's link end together with the partner reference it sends to: what connecting, a link
 * fault and stopping do to the link, the same for every port-like actor.
 */
public final class PartnerLink {

  private ActorRef<LinkFrame> partner;

  /**
   * Sends a frame to the partner; before a partner is known there is no wire to send on. Returns
   * whether it was sent.
   */
  public boolean send(LinkFrame frame) {
    if (partner != null) {
      partner.tell(frame);
      return true;
    }
    return false;
  }

  /**
   * What the owning actor's death watch of its partner sends it (a message it sends itself):
   * the partner's actor is gone without a word, its JVM killed or crashed.
   */
  public record Gone(ActorRef<LinkFrame> ref) implements PortMessage, akka.actor.NoSerializationVerificationNeeded {}

  /**
   * A (new) partner was found: train the link with it. Returns whether it is new, so that the
   * owner watches it (and hands this class its {@link Gone} as a model-time event).
   */
  public boolean connect(ActorRef<LinkFrame> ref, LinkEnd link) {
    if (!ref.equals(partner)) {
      partner = ref;
      link.enable();
      return true;
    }
    return false;
  }

  /**
   * The partner's actor is gone: this end sees the physical layer go down now, as when the
   * partner's power fails. Under the model-time kernel, where a partner's silence takes no link
   * down, this is how an unannounced death reaches the model (a stopping partner says so itself).
   */
  public void gone(Gone msg, LinkEnd link) {
    if (msg.ref().equals(partner) && link.isUp()) {
      link.partnerLost();
    }
  }

  /** Fault injection: the link is taken down, or brought back, at this end at a model time. */
  public void setLink(boolean up, long modelAt, LinkEnd link) {
    if (up) {
      link.observe(modelAt);
      if (partner != null) {
        link.enable();
      }
    } else {
      link.disable(modelAt);
    }
  }

  /** The owning actor stops: the partner sees a surprise down at once. */
  public void stop(LinkEnd link) {
    if (partner != null && link.isUp()) {
      link.disable(link.modelNow());
    }
  }
}
