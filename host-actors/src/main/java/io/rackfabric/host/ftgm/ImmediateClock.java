package io.rackfabric.host.ftgm;

import io.rackfabric.fabric.time.ModelClock;

/**
 * A {@link ModelClock} for steps that carry their own model times ({@link NicFaultDaemon}'s):
 * every timer runs at once, as soon as the step before it is known, rather than waiting for a
 * clock. Its {@link #now} is 0: nothing should read it.
 */
final class ImmediateClock implements ModelClock {

  @Override
  public long now() {
    return 0;
  }

  @Override
  public void schedule(long delayNs, Runnable task) {
    task.run();
  }
}
