package io.rackfabric.host.controlplane;

/**
 * The pair's heartbeats in model time, as wakes of the host's endpoint ({@link HostGuest}): the
 * master's chain of heartbeat wakes, one an interval after the other (a background timer), and
 * the backup's wake just past the heartbeat deadline. Nothing is scheduled until the endpoint
 * runs under the kernel; {@link PairHeartbeats#kernelStarted} schedules what waited. Not thread-safe: the
 * host's actor's own.
 */
final class ModelHeartbeats {

  /** The deadline wake's token; heartbeat chains are numbered above {@link #HEARTBEAT_BASE}. */
  static final long DEADLINE = 1;
  private static final long HEARTBEAT_BASE = 1_000;

  private final HostGuest guest;
  private final long intervalNs;
  /** A master whose heartbeats run in model time. */
  private boolean beating;
  /** The chain of heartbeat wakes now running: a wake of an earlier one is stale. */
  private long chain = HEARTBEAT_BASE;

  ModelHeartbeats(HostGuest guest, long intervalNs) {
    this.guest = guest;
    this.intervalNs = intervalNs;
  }

  /** A master starts beating, its last beat at {@code lastBeatAt}: the first wake an interval on. */
  void start(long lastBeatAt) {
    beating = true;
    chain++;
    next(lastBeatAt);
  }

  /** The master stops beating: its scheduled wake is stale. */
  void stop() {
    if (beating) {
      beating = false;
      chain++;
    }
  }

  boolean beating() {
    return beating;
  }

  /** Whether a wake with {@code token} is the running chain's heartbeat. */
  boolean isBeat(long token) {
    return beating && token == chain;
  }

  /** The next heartbeat wake, an interval after {@code lastBeatAt} (once the kernel runs). */
  void next(long lastBeatAt) {
    if (guest.running()) {
      guest.wake(lastBeatAt + intervalNs, chain, true);
    }
  }

  /**
   * A wake just past {@code deadline}, when every heartbeat that arrives by then has been handled
   * (a peer message at the same time comes after this host's own wake, so just past). Background
   * while the master lives (it moves with each heartbeat); not when the master is known gone, so
   * that the rack runs on to the suspicion.
   */
  void wakeAfter(long deadline, boolean background) {
    if (guest.running()) {
      guest.wake(deadline + 1, DEADLINE, background);
    }
  }
}
