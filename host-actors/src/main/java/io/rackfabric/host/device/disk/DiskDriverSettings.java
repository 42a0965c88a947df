package io.rackfabric.host.device.disk;

import com.typesafe.config.Config;

/**
 * Everything under {@code rackfabric.host.disk-driver}, read once and validated.
 *
 * @param msiWatchdogNs model ns a read's MSI-X message may take before the driver reads the disk's
 *     STATUS to see whether it is still there, and the read's answer too before the disk counts as
 *     removed
 */
public record DiskDriverSettings(long msiWatchdogNs) {

  public DiskDriverSettings {
    if (msiWatchdogNs <= 0) {
      throw new IllegalArgumentException("rackfabric.host.disk-driver: msi-watchdog=" + msiWatchdogNs
          + "ns must be positive");
    }
  }

  public static DiskDriverSettings create(Config root) {
    return new DiskDriverSettings(root.getConfig("rackfabric.host.disk-driver").getDuration("msi-watchdog").toNanos());
  }
}
