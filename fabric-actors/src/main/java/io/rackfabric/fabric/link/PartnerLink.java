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

  /** A (new) partner was found: train the link with it. */
  public void connect(ActorRef<LinkFrame> ref, LinkEnd link) {
    if (!ref.equals(partner)) {
      partner = ref;
      link.enable();
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
