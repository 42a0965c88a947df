package io.rackfabric.host.ftgm;

/**
 * The FAULT_DETECTED handlers of one card's ports restore its state through the device driver,
 * which lets one at a time at the card: the per-process recovery times add up with the number of
 * open ports (FTGM section 5.2).
 */
public final class RecoveryLane {

  private long freeAt;

  /** A handler ready at {@code at} that takes {@code durationNs}: when it ends. */
  public long reserve(long at, long durationNs) {
    long start = Math.max(at, freeAt);
    freeAt = start + durationNs;
    return freeAt;
  }
}
