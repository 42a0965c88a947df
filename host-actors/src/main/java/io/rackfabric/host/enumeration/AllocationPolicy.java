package io.rackfabric.host.enumeration;

import java.util.List;
import java.util.Optional;

/**
 * How an {@link Enumerator} hands out bus numbers and addresses. {@link DynamicAllocation} is the
 * classic depth-first assignment: buses in the order bridges are found, addresses packed in the
 * apertures, so plugging a device in moves everything after it. {@link SlotAllocation} reserves
 * bus ranges and address blocks per slot (Multi-peer Figs. 4 and 6) and packs only what is outside
 * the slots.
 */
public sealed interface AllocationPolicy permits DynamicAllocation, SlotAllocation {

  enum Mode {
    DYNAMIC,
    SLOT;

    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  Mode mode();

  Apertures apertures();

  /** The slot groups, empty in dynamic mode. */
  List<SlotGroup> slotGroups();

  /** The slot group on the secondary bus of the bridge at {@code bridgeLocation}, if any. */
  default Optional<SlotGroup> slotsBelow(String bridgeLocation) {
    return slotGroups().stream().filter(g -> g.location().equals(bridgeLocation)).findFirst();
  }
}
