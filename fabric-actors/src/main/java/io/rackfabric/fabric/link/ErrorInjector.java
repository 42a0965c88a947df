package io.rackfabric.fabric.link;

import java.util.SplittableRandom;

/** Draws the fate of each transmission under {@link LinkErrors}, deterministically from its seed. */
public final class ErrorInjector {

  public static final int PASS = 0;
  public static final int DROP = 1;
  public static final int CORRUPT = 2;
  public static final int DELAY = 3;

  private final LinkErrors errors;
  private final SplittableRandom random;

  public ErrorInjector(LinkErrors errors) {
    this.errors = errors;
    this.random = new SplittableRandom(errors.seed());
  }

  public LinkErrors errors() {
    return errors;
  }

  /** Whether the window is over for a TLP starting at {@code startNs} and every later one. */
  public boolean over(long startNs) {
    return startNs >= errors.untilNs();
  }

  /** The fate of a TLP that starts on the wire at model {@code startNs}. */
  public int draw(long startNs) {
    if (startNs < errors.fromNs() || startNs >= errors.untilNs()) {
      return PASS;
    }
    // One draw per transmission whatever the rates, so the sequence of fates depends on the seed
    // and the order of transmissions only.
    double u = random.nextDouble();
    if (u < errors.dropRate()) {
      return DROP;
    }
    if (u < errors.dropRate() + errors.corruptRate()) {
      return CORRUPT;
    }
    if (u < errors.dropRate() + errors.corruptRate() + errors.delayRate()) {
      return DELAY;
    }
    return PASS;
  }
}
