package io.rackfabric.fabric.endpoint;

import io.rackfabric.fabric.management.DeviceDescription;
import io.rackfabric.fabric.management.TopologyDatabase;
import java.util.List;
import java.util.function.Function;

/**
 * What a memory endpoint manages (see {@link MemoryEndpoint}'s create with one): its device (null:
 * it answers no management packet) and, with {@code fabricManager}, the fabric manager's driver,
 * which discovers when told ({@link MemoryEndpoint.StartDiscovery}) with at most {@code window}
 * reads outstanding and checks what it finds with {@code check} (null: nothing to check against).
 */
public record ManagementSetup(DeviceDescription device, boolean fabricManager, int window,
    Function<TopologyDatabase, List<String>> check) {

  /** No management at all. */
  public static final ManagementSetup NONE = new ManagementSetup(null, false, 1, null);

  public ManagementSetup {
    if (fabricManager && device == null) {
      throw new IllegalArgumentException("a fabric manager needs its endpoint's device description");
    }
  }
}
