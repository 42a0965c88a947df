package io.rackfabric.host.device;

/**
 * A device driver's sequencing as a hot-remove sees it (a GPU's copies, a disk's reads): over or
 * not, removed at a model time, and the watchdog deadline it still awaits.
 */
public interface RemovableSequence {

  /** Nothing more will happen: the plan is done, or the device was found removed. */
  boolean over();

  /** The device was hot-removed at model {@code at} for {@code reason}: a surprise removal then. */
  void hotRemoved(long at, String reason);

  /** The model time the watchdog is due, {@link DeviceWatchdog#NONE} when nothing is awaited. */
  long watchdogDeadline();
}
