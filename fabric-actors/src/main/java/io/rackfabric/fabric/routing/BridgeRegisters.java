package io.rackfabric.fabric.routing;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.wire.WireMessage;

/**
 * The routing state of a type-1 bridge: primary/secondary/subordinate bus numbers and the memory
 * and prefetchable memory windows (null when disabled). Windows are kept exactly as configured;
 * the emulator does not force the 1 MiB granularity of real base/limit registers so that the
 * papers' small worked examples (Ladon Fig. 1) can be expressed as written.
 */
public record BridgeRegisters(
    int primaryBus,
    int secondaryBus,
    int subordinateBus,
    AddressRange memory,
    AddressRange prefetchable)
    implements WireMessage {

  public BridgeRegisters {
    checkBus("primary", primaryBus);
    checkBus("secondary", secondaryBus);
    checkBus("subordinate", subordinateBus);
    if (subordinateBus < secondaryBus) {
      throw new IllegalArgumentException(
          "subordinate=" + subordinateBus + " is below secondary=" + secondaryBus);
    }
  }

  private static void checkBus(String name, int bus) {
    if (bus < 0 || bus > 255) {
      throw new IllegalArgumentException(name + "=" + bus + " not in [0,255]");
    }
  }

  public boolean claimsAddress(long address) {
    return (memory != null && memory.contains(address))
        || (prefetchable != null && prefetchable.contains(address));
  }

  public boolean claimsBus(int bus) {
    return bus >= secondaryBus && bus <= subordinateBus;
  }

  public BridgeRegisters withBuses(int primary, int secondary, int subordinate) {
    return new BridgeRegisters(primary, secondary, subordinate, memory, prefetchable);
  }

  public BridgeRegisters withMemory(AddressRange newMemory) {
    return new BridgeRegisters(primaryBus, secondaryBus, subordinateBus, newMemory, prefetchable);
  }

  public BridgeRegisters withPrefetchable(AddressRange newPrefetchable) {
    return new BridgeRegisters(primaryBus, secondaryBus, subordinateBus, memory, newPrefetchable);
  }
}
