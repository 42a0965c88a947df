package io.rackfabric.fabric.link;

import io.rackfabric.fabric.credit.FcCredits;

/**
 * InitFC DLLP: the sender's receive buffer sizes for this training attempt. {@code training}
 * names the sender's attempt; {@code seenTraining} is the partner attempt whose InitFC the sender
 * has received (0 for none), which is how each end learns the other has its credits.
 */
public record InitFc(FcCredits limits, long training, long seenTraining, long sentAt)
    implements LinkFrame {}
