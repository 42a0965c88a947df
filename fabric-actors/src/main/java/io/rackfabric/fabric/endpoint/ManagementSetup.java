package io.rackfabric.fabric.endpoint;

import io.rackfabric.fabric.management.DeviceDescription;
import io.rackfabric.fabric.management.TopologyDatabase;
import java.util.List;
import java.util.function.Function;

/**
 * What a memory endpoint manages (see {@link MemoryEndpoint}'s create with one): its device (null: it answers no management packet) and, when
 * {@code discoverAt} is 0 or more, the fabric manager's driver, which starts discovering at that
 * model time with at most {@code window} reads outstanding and checks what it finds with
 * {@code check} (null: nothing to check against).
 */
public record ManagementSetup(DeviceDescription device, long discoverAt, int window,
    Function<TopologyDatabase, List<String>> check) {

  /** No management at all. */
  public static final ManagementSetup NONE = new ManagementSetup(null, -1, 1, null);

  public ManagementSetup {
    if (discoverAt >= 0 && device == null) {
      throw new IllegalArgumentException("a fabric manager needs its endpoint's device description");
    }
  }
}
