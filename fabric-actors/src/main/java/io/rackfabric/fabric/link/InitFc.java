package io.rackfabric.fabric.link;

import io.rackfabric.fabric.credit.FcCredits;

/**
 * InitFC DLLP: the sender's receive buffer sizes for this training attempt. {@code training}
 * names the sender's attempt; {@code seenTraining} is the partner attempt whose InitFC the sender
 * has received (0 for none), which is how each end learns the other has its credits.
 *
 * <p>{@code timed}: sent in a model-time event of its end under the kernel (a retraining, see
 * {@link LinkTraining}), so it is a model-time frame too, arriving a DLLP's flight after
 * {@code sentAt}. An untimed one (the training at the rack's start, a link-up fault's) is link
 * management handled at once.
 */
public record InitFc(FcCredits limits, long training, long seenTraining, long sentAt, boolean timed)
    implements LinkFrame {

  /** An untimed InitFC. */
  public InitFc(FcCredits limits, long training, long seenTraining, long sentAt) {
    this(limits, training, seenTraining, sentAt, false);
  }
}
