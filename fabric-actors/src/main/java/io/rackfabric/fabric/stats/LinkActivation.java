package io.rackfabric.fabric.stats;

import io.rackfabric.fabric.link.LinkCounters;
import io.rackfabric.fabric.wire.WireMessage;

/**
 * A link end under fabric management (AS-FM section 2.2): when it last trained to DL_Protected and
 * when the fabric manager's PI-4 write last moved it to DL_Active, in model time (-1: never), and
 * how many times it was activated and deactivated. All -1 and 0 on a link that activates itself.
 */
public record LinkActivation(long trainedAtNs, long activatedAtNs, long activations, long deactivations)
    implements WireMessage {

  public static final LinkActivation NONE = new LinkActivation(-1, -1, 0, 0);

  public static LinkActivation of(LinkCounters c) {
    if (c.trainedAtNs < 0 && c.activations == 0 && c.deactivations == 0) {
      return NONE;
    }
    return new LinkActivation(c.trainedAtNs, c.activatedAtNs, c.activations, c.deactivations);
  }

  /** Model time from the last training to the activation that followed it; -1: not activated since. */
  public long waitedNs() {
    return activatedAtNs >= trainedAtNs && trainedAtNs >= 0 ? activatedAtNs - trainedAtNs : -1;
  }
}
