package io.rackfabric.host.device.gpu;

import com.typesafe.config.Config;

/**
 * Everything under {@code rackfabric.host.gpu-driver}, read once and validated.
 *
 * @param msiWatchdogNs model ns a copy's MSI may take before the driver reads the GPU's STATUS to
 *     see whether it is still there, and the read's answer too before the GPU counts as removed
 */
public record GpuDriverSettings(long msiWatchdogNs) {

  public GpuDriverSettings {
    if (msiWatchdogNs <= 0) {
      throw new IllegalArgumentException("rackfabric.host.gpu-driver: msi-watchdog=" + msiWatchdogNs
          + "ns must be positive");
    }
  }

  public static GpuDriverSettings create(Config root) {
    return new GpuDriverSettings(root.getConfig("rackfabric.host.gpu-driver").getDuration("msi-watchdog").toNanos());
  }
}
