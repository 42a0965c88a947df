package io.rackfabric.cluster.topology;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * What runs behind an endpoint's BARs, the topology's {@code device} key: plain memory (the
 * default), or a device with behaviour of its own that the endpoint's node spawns next to it.
 */
public enum DeviceKind {
  /** The BARs are memory: writes are stored, reads answered. */
  MEMORY("memory"),
  /** The GPU-like device of host-actors' {@code io.rackfabric.host.device.gpu}: BAR0 registers, BAR1 device memory. */
  GPU("gpu"),
  /**
   * The NVMe-like disk of host-actors' {@code io.rackfabric.host.device.disk}: BAR0 registers, one
   * I/O queue pair in host memory.
   */
  DISK("disk");

  private final String key;

  DeviceKind(String key) {
    this.key = key;
  }

  /** Its value in a topology file. */
  public String key() {
    return key;
  }

  /** The kind a topology names; refused, naming the value and the allowed ones, if there is none. */
  public static DeviceKind of(String value) {
    for (DeviceKind k : values()) {
      if (k.key.equals(value)) {
        return k;
      }
    }
    throw new IllegalArgumentException("device = \"" + value + "\" is not one of " + allowed());
  }

  static String allowed() {
    return Arrays.stream(values()).map(DeviceKind::key).collect(Collectors.joining(", "));
  }
}
