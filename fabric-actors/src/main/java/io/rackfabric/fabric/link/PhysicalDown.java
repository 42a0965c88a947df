package io.rackfabric.fabric.link;

/**
 * The far end lost the physical link (surprise down); the receiving end goes down at once.
 * {@code retraining}: the far end went down to retrain (a replay rollover), not disabled, so under
 * the kernel the receiving end retrains in model time too (see {@link LinkTraining}).
 */
public record PhysicalDown(long sentAt, boolean retraining) implements LinkFrame {

  /** The far end went down for good (disabled, stopped). */
  public PhysicalDown(long sentAt) {
    this(sentAt, false);
  }
}
