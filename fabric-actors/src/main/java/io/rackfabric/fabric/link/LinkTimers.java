package io.rackfabric.fabric.link;

import java.time.Duration;

/**
 * Wall-clock timers of the data link layer (already scaled by the time-dilation factor).
 *
 * <p>Under the model-time kernel a retraining after a link-down the model decided (a replay
 * rollover) waits {@link #modelRetryIntervalNs} of model time instead, the retry interval before
 * dilation (see {@link LinkTraining}).
 *
 * @param keepalive an idle active link sends an UpdateFC this often
 * @param dllpTimeout no DLLP for this long takes the link down
 * @param initRetry InitFC is resent this often while training
 * @param initTimeout a training attempt without an answer gives up after this long
 * @param retryInterval an enabled but inactive link tries to train again after this long
 * @param timeDilation the factor the durations were scaled by (one model second lasts this many
 *     wall seconds); positive
 */
public record LinkTimers(
    Duration keepalive,
    Duration dllpTimeout,
    Duration initRetry,
    Duration initTimeout,
    Duration retryInterval,
    double timeDilation) {

  /** Timers not dilated (a time-dilation factor of 1). */
  public LinkTimers(Duration keepalive, Duration dllpTimeout, Duration initRetry, Duration initTimeout,
      Duration retryInterval) {
    this(keepalive, dllpTimeout, initRetry, initTimeout, retryInterval, 1.0);
  }

  public LinkTimers {
    if (keepalive.isNegative() || keepalive.isZero()) {
      throw new IllegalArgumentException("keepalive=" + keepalive + " must be positive");
    }
    if (dllpTimeout.compareTo(keepalive.multipliedBy(2)) < 0) {
      throw new IllegalArgumentException(
          "dllp-timeout=" + dllpTimeout + " must be at least twice keepalive=" + keepalive);
    }
    if (initRetry.isNegative() || initRetry.isZero()) {
      throw new IllegalArgumentException("init-retry=" + initRetry + " must be positive");
    }
    if (initTimeout.compareTo(initRetry) < 0) {
      throw new IllegalArgumentException(
          "init-timeout=" + initTimeout + " must be at least init-retry=" + initRetry);
    }
    if (retryInterval.isNegative() || retryInterval.isZero()) {
      throw new IllegalArgumentException("retry-interval=" + retryInterval + " must be positive");
    }
    if (!(timeDilation > 0)) {
      throw new IllegalArgumentException("time-dilation=" + timeDilation + " must be positive");
    }
  }

  public static LinkTimers defaults() {
    return new LinkTimers(
        Duration.ofMillis(100),
        Duration.ofMillis(1500),
        Duration.ofMillis(50),
        Duration.ofMillis(1000),
        Duration.ofMillis(200));
  }

  /**
   * The retry interval in model time, in nanoseconds: the interval before dilation, at least 1 ns.
   * A link the model took down (a replay rollover) starts training again this long after.
   */
  public long modelRetryIntervalNs() {
    return Math.max(1, Math.round(retryInterval.toNanos() / timeDilation));
  }

  /** The period at which a port should call {@link LinkStateMachine#tick}. */
  public Duration tickInterval() {
    Duration min = keepalive.compareTo(initRetry) < 0 ? keepalive : initRetry;
    return min.dividedBy(2).isZero() ? min : min.dividedBy(2);
  }
}
