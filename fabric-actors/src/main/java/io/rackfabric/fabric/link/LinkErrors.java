package io.rackfabric.fabric.link;

import io.rackfabric.fabric.wire.WireMessage;

/**
 * Error injection on the transmit side of a link end: each TLP that starts on the wire in model
 * time [{@code fromNs}, {@code untilNs}) is dropped (never reaches the partner), corrupted (arrives
 * with a bad LCRC) or delayed (arrives {@code delayNs} later) with the given probabilities, one
 * draw per transmission (replays too) from a generator seeded with {@code seed}, so a run with the
 * same seed and the same traffic replays exactly.
 */
public record LinkErrors(
    double dropRate,
    double corruptRate,
    double delayRate,
    long delayNs,
    long fromNs,
    long untilNs,
    long seed) implements WireMessage {

  /** No errors: what a link end starts with. */
  public static final LinkErrors NONE = new LinkErrors(0, 0, 0, 0, 0, Long.MAX_VALUE, 0);

  public LinkErrors {
    checkRate("drop", dropRate);
    checkRate("corrupt", corruptRate);
    checkRate("delay-rate", delayRate);
    double sum = dropRate + corruptRate + delayRate;
    if (sum > 1 + 1e-9) {
      throw new IllegalArgumentException("drop + corrupt + delay-rate=" + sum + " exceeds 1");
    }
    if (delayNs < 0) {
      throw new IllegalArgumentException("delayNs=" + delayNs + " is negative");
    }
    if (untilNs < fromNs) {
      throw new IllegalArgumentException("untilNs=" + untilNs + " is before fromNs=" + fromNs);
    }
  }

  private static void checkRate(String name, double rate) {
    if (!(rate >= 0 && rate <= 1)) {
      throw new IllegalArgumentException(name + "=" + rate + " not in [0,1]");
    }
  }

  /** Whether any TLP can be affected at all. */
  public boolean any() {
    return dropRate > 0 || corruptRate > 0 || (delayRate > 0 && delayNs > 0);
  }
}
